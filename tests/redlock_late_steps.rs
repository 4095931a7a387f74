//! Steps of a RedLock call that run late: a master whose reply did not come
//! in time may still run the step, after a later step of the same call sent
//! on a new connection (a network that delivers late, as a retransmission
//! once a partition heals; here a proxy that holds what it carries). The
//! call leaves such a master out (`features::gone`); these tests make the
//! late step run and show that it takes nothing from the call.

mod common;

use std::time::{Duration, Instant};

use common::{limits, Proxy, Redis};
use redis_lock::engine::error::NodeError;
use redis_lock::engine::features::fair_quorum;
use redis_lock::engine::features::gone::Gone;
use redis_lock::engine::features::lease::Lease;
use redis_lock::engine::features::token::new_token;
use redis_lock::engine::round::quorum::Outcome;
use redis_lock::engine::round::{Node, Vote};

/// A on its own, B and C behind proxies; every node's reply is due within
/// `timeout`.
fn a_and_proxied(servers: &[Redis], proxies: &[Proxy], timeout: Duration) -> Vec<Node> {
    let mut nodes = vec![servers[0].node(timeout)];
    nodes.extend(proxies.iter().map(|p| Node { server: p.server(), timeout, connect: timeout }));
    nodes
}

/// Once the proxies have closed the connections that carried the held
/// steps (they ran, or were lost with their connection, as a reset can lose
/// them): B and C then serve only this test's own client.
fn late_steps_done(servers: &[Redis]) {
    let alone = |r: &Redis| r.info("clients").contains("connected_clients:1\r\n");
    let until = Instant::now() + Duration::from_secs(5);
    while !servers[1..].iter().all(alone) {
        assert!(Instant::now() < until, "the held steps reached B and C within 5 s");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_later_attempt_counts_no_master_where_an_earlier_one_may_still_run() {
    // A master whose reply did not come in time was sent our SET and, behind
    // it, its release, on a connection that was then dropped. A late
    // release would delete the key of a later attempt sent on a new
    // connection. So the call's later attempts leave such a master out.
    let servers: Vec<Redis> = (0..3).map(|_| Redis::start()).collect();
    let proxies: Vec<Proxy> = servers[1..].iter().map(|r| Proxy::start(r.port)).collect();
    let nodes = a_and_proxied(&servers, &proxies, Duration::from_millis(300));
    let token = new_token("");
    let lease = Lease::new(&nodes, b"k", &token);
    assert!(!lease.release(&limits()).held()); // connect everywhere first

    // A refuses the first attempt (a key of another owner, for 200 ms), and
    // B's and C's SETs are held: the attempt fails after the node timeout.
    servers[0].try_cmd(&["SET", "k", "foreign", "PX", "200"]).unwrap();
    proxies.iter().for_each(|p| p.set_delay(Duration::from_millis(1000)));
    let first = lease.try_acquire(10_000, &limits());
    proxies.iter().for_each(|p| p.set_delay(Duration::ZERO));
    let timed_out = |v: &Vote| matches!(v, Vote::Failed(e) if e.to_string().contains("no reply within 0.3 s"));
    assert!(!first.held() && first.votes[0] == Vote::No && timed_out(&first.votes[1]) && timed_out(&first.votes[2]), "{:?}", first.votes);

    // B and C answer at once again, and A is free: still, the call counts
    // neither (their late steps have not run yet), and no majority is left.
    std::thread::sleep(Duration::from_millis(100));
    let second = lease.try_acquire(10_000, &limits());
    assert!(!second.held() && timed_out(&second.votes[1]) && timed_out(&second.votes[2]), "{:?}", second.votes);

    // Once the first attempt's late SETs have run on B and C (about 1 s
    // after they were sent), a new call (another lease) leaves out none.
    // The release sent behind each usually runs too, but may be lost: the
    // reply to the SET finds our side closed, and the proxy then closes
    // both ways. A key it leaves is ours until its TTL, on a minority: the
    // new call gets the others.
    let ran = Instant::now() + Duration::from_secs(5);
    while !servers[1..].iter().all(|r| r.calls("set") == 1) {
        assert!(Instant::now() < ran, "the late SETs ran on B and C");
        std::thread::sleep(Duration::from_millis(10));
    }
    late_steps_done(&servers);
    assert_eq!(servers[0].get(b"k"), None, "the second attempt's part on A was given back");
    let kept: Vec<bool> = servers.iter().map(|r| r.get(b"k").is_some()).collect();
    let call = Lease::new(&nodes, b"k", &new_token("")).try_acquire(10_000, &limits());
    let left_out = call.votes.iter().any(|v| matches!(v, Vote::Failed(_)));
    assert!(!left_out && (call.held() || kept.iter().filter(|&&k| k).count() >= 2), "{kept:?} {:?}", call.votes);
}

#[test]
fn a_late_look_hands_on_nothing_that_a_later_look_of_the_call_counted() {
    // A waiter's look on B and C is held by the network past the node
    // timeout, and so is the leave sent behind it; meanwhile B and C answer
    // new connections at once, and their `K` is free. Counting them again,
    // the waiter's next look would take `K` there and hold on B + C, a
    // majority; then its late look would find that `K` its own with a lower
    // ticket waiting and grant it to that waiter (and the late leave would
    // delete it): two holders. So the call leaves B and C out: it never
    // holds, and the late steps find nothing of it to hand on.
    let servers: Vec<Redis> = (0..3).map(|_| Redis::start()).collect();
    let proxies: Vec<Proxy> = servers[1..].iter().map(|r| Proxy::start(r.port)).collect();
    let nodes = a_and_proxied(&servers, &proxies, Duration::from_millis(300));
    let pause = Duration::from_millis(100);

    // Every master knows the queue's scripts (a held look sent by SHA to a
    // server without them would come back NOSCRIPT and never run), and our
    // connections are open: the look goes on them.
    for r in &servers {
        r.try_cmd(&["SET", "warm", "foreign", "PX", "60000"]).unwrap();
    }
    let warm = fair_quorum::acquire(&nodes, b"warm", &new_token(""), 10_000, Instant::now() + pause, pause, &mut Gone::default(), &limits());
    assert_eq!(warm, Ok(Outcome::Refused));

    // A is held by another owner for the whole test: a majority needs B and C.
    servers[0].try_cmd(&["SET", "k", "foreign", "PX", "60000"]).unwrap();
    proxies.iter().for_each(Proxy::hold_open_connections);
    let token = new_token("");
    let ticket = fair_quorum::ticket(&token);
    assert!(ticket > 0, "a token ends with its since: {token}");
    let mut gone = Gone::default();
    let outcome = fair_quorum::acquire(&nodes, b"k", &token, 10_000, Instant::now() + Duration::from_millis(800), pause, &mut gone, &limits());
    assert!(proxies.iter().all(|p| p.held() >= 1), "the first look was held on B and C");
    // (Not held: B and C count as failed for the rest of the call.)
    let timed_out = |e: &[NodeError]| e.len() == 2 && e.iter().all(|e| e.to_string().contains("no reply within 0.3 s"));
    assert!(matches!(&outcome, Ok(Outcome::Unreachable(e)) if timed_out(e)), "{outcome:?}");
    assert!(gone.is_out(1) && gone.is_out(2) && !gone.is_out(0), "{gone:?}");

    // Another waiter with a lower ticket queues on B and C; then the held
    // look runs there: had it found `K` ours, it would grant it to that one.
    let after_ours: Vec<u64> = servers.iter().map(|r| r.calls("zadd") + 2).collect();
    for r in &servers[1..] {
        r.try_cmd(&["ZADD", "{k}:rq", &(ticket - 1000).to_string(), "other"]).unwrap();
        r.try_cmd(&["ZADD", "{k}:rt", &(ticket + 600_000).to_string(), "other"]).unwrap();
    }
    proxies.iter().for_each(Proxy::deliver_held);
    let ran = Instant::now() + Duration::from_secs(5);
    while !(1..3).all(|i| servers[i].calls("zadd") >= after_ours[i] + 2) {
        assert!(Instant::now() < ran, "the held looks ran on B and C: {:?}", servers.iter().map(|r| r.calls("zadd")).collect::<Vec<_>>());
        std::thread::sleep(Duration::from_millis(10));
    }
    late_steps_done(&servers);
    assert_eq!(servers[0].get(b"k"), Some(b"foreign".to_vec()));
    for r in &servers[1..] {
        assert_eq!(r.get(b"k"), None, "nothing of ours for the late look to grant on {}", r.port);
        let first: Vec<String> = redis::from_redis_value(r.try_cmd(&["ZRANGE", "{k}:rq", "0", "0"]).unwrap()).unwrap();
        assert_eq!(first, ["other"], "the other waiter still first on {}", r.port);
    }
}
