//! Redlock behaviour of the engine over several real servers: hung nodes,
//! injected latency, retries.

mod common;

use std::time::{Duration, Instant};

use common::{limits, Proxied, Proxy, Redis};
use redis_lock::engine::features::fair_quorum;
use redis_lock::engine::features::gone::Gone;
use redis_lock::engine::features::lease::{Lease, Patience};
use redis_lock::engine::features::token::new_token;
use redis_lock::engine::round::quorum::{drift_ms, Outcome};
use redis_lock::engine::round::{Node, Until, Vote, STRAGGLER_MIN};

fn five() -> Vec<Redis> {
    (0..5).map(|_| Redis::start()).collect()
}

#[test]
fn a_hung_node_does_not_hold_up_a_majority() {
    let servers = five();
    let nodes: Vec<Node> = servers.iter().map(|r| r.node(Duration::from_millis(300))).collect();
    let token = new_token("");
    let lease = Lease::new(&nodes, b"hung", &token);
    assert!(!lease.release(&limits()).held()); // connect everywhere first
    servers[0].signal("-STOP");

    let start = Instant::now();
    let round = lease.try_acquire(10_000, &limits());
    let took = start.elapsed();
    assert!(round.held(), "{:?}", round.votes);
    assert!(took < Duration::from_millis(300), "decided without waiting for the hung node: {took:?}");
    assert!(round.validity_ms() > 10_000.0 - drift_ms(10_000) - 300.0);
    let holding = || servers[1..].iter().filter(|r| r.get(b"hung") == Some(token.clone().into_bytes())).count();
    assert!(eventually(|| holding() == 4), "the four live nodes hold the lock");

    // Unlock is decided by the live majority too, without the hung node's timeout.
    let start = Instant::now();
    assert!(lease.release(&limits()).held());
    assert!(start.elapsed() < Duration::from_millis(300));
    servers[0].signal("-CONT");
    // Releases not waited for are in flight; the resumed node runs its late
    // SET and then the release pipelined behind it.
    for r in &servers {
        assert!(eventually(|| r.get(b"hung").is_none()), "no key of ours left on {}", r.port);
    }
}

#[test]
fn a_split_attempt_does_not_wait_a_node_timeout_for_a_hung_node() {
    // Two of the four live nodes hold another token: two yes, two no, and
    // only the hung node could still make a majority. The attempt is given
    // up once the others have had as long again as the answers took (a few
    // ms here), not after the hung node's 2 s: meanwhile its two yes votes
    // would hold everybody up.
    let servers = five();
    let nodes: Vec<Node> = servers.iter().map(|r| r.node(Duration::from_secs(2))).collect();
    let token = new_token("");
    let lease = Lease::new(&nodes, b"split", &token);
    assert!(!lease.release(&limits()).held()); // connect everywhere first
    servers[3].set(b"split", b"other");
    servers[4].set(b"split", b"other");
    servers[0].signal("-STOP");

    let start = Instant::now();
    let round = lease.try_acquire(10_000, &limits());
    let took = start.elapsed();
    assert!(!round.held(), "{:?}", round.votes);
    assert_eq!(round.votes[0], Vote::Unanswered, "{:?}", round.votes);
    assert!(took < Duration::from_millis(500), "gave up without the hung node's 2 s: {took:?}");
    // Its yes votes are given back at once.
    for r in &servers[1..3] {
        assert!(eventually(|| r.get(b"split").is_none()), "given back on {}", r.port);
    }
    servers[0].signal("-CONT");
    // The hung node runs the late SET and the release sent behind it.
    assert!(eventually(|| servers[0].get(b"split").is_none()), "nothing of ours left on the resumed node");
    assert_eq!(servers[3].get(b"split"), Some(b"other".to_vec()));
}

#[test]
fn a_stopped_master_that_still_owes_answers_gets_no_straggler_time() {
    // The same split, over and over, by new calls. The first one's look
    // gives the stopped node its straggler time (at least STRAGGLER_MIN,
    // as to any node that might only be slow). Its connection then owes
    // that answer, and once it has been silent on it for STRAGGLER_MIN a
    // later look's answer there can only come after it: the later calls do
    // not wait for it at all. (Before, every one of them waited at least
    // STRAGGLER_MIN: none could be quicker.)
    let servers = five();
    let nodes: Vec<Node> = servers.iter().map(|r| r.node(Duration::from_secs(2))).collect();
    // Connect everywhere first, reading every answer: nothing is owed.
    let (left, _) = fair_quorum::give_back(&nodes, b"split", &new_token(""), &limits(), Until::All);
    assert!(left.iter().all(|v| *v == Vote::No), "{left:?}");
    servers[3].set(b"split", b"other");
    servers[4].set(b"split", b"other");
    servers[0].signal("-STOP");
    let mut took = Vec::new();
    for _ in 0..21 {
        let token = new_token("");
        let lease = Lease::new(&nodes, b"split", &token);
        let start = Instant::now();
        let round = lease.try_acquire(10_000, &limits());
        took.push(start.elapsed());
        assert!(!round.held() && round.votes[0] == Vote::Unanswered, "{:?}", round.votes);
    }
    assert!(took[0] >= STRAGGLER_MIN, "the first look waited for the straggler: {:?}", took[0]);
    let quickest = took[1..].iter().min().copied().unwrap_or_default();
    assert!(quickest < STRAGGLER_MIN, "every later look waited for a node silent on what it owes: {:?}", &took[1..]);
    servers[0].signal("-CONT");
    // Resumed, it runs every late SET with its release behind it.
    assert!(eventually(|| servers[0].get(b"split").is_none()), "nothing of ours left on the resumed node");
    for r in &servers[1..3] {
        assert!(eventually(|| r.get(b"split").is_none()), "given back on {}", r.port);
    }
}

/// Whether `cond` becomes true within a second (for effects still in flight).
fn eventually(cond: impl Fn() -> bool) -> bool {
    let until = Instant::now() + Duration::from_secs(1);
    while !cond() {
        if Instant::now() > until {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    true
}

#[test]
fn two_hung_nodes_cost_their_timeout_and_still_give_a_majority() {
    let servers = five();
    let nodes: Vec<Node> = servers.iter().map(|r| r.node(Duration::from_millis(200))).collect();
    let token = new_token("");
    let lease = Lease::new(&nodes, b"two", &token);
    servers[0].signal("-STOP");
    servers[1].signal("-STOP");
    servers[2].signal("-STOP");
    let start = Instant::now();
    let round = lease.try_acquire(10_000, &limits());
    let took = start.elapsed();
    for r in &servers[..3] {
        r.signal("-CONT");
    }
    assert!(!round.held());
    assert_eq!(round.votes.iter().filter(|v| matches!(v, Vote::Failed(_))).count(), 3, "{:?}", round.votes);
    assert!(took >= Duration::from_millis(200) && took < Duration::from_millis(1200), "{took:?}");
}

#[test]
fn latency_shrinks_the_validity() {
    let proxied = Proxied::start(3);
    let token = new_token("");
    let lease = Lease::new(&proxied.nodes, b"lat", &token);
    proxied.set_delay(Duration::from_millis(50));
    let round = lease.try_acquire(10_000, &limits());
    assert!(round.held());
    let ideal = 10_000.0 - drift_ms(10_000);
    assert!(round.validity_ms() < ideal - 100.0 && round.validity_ms() > ideal - 300.0, "{}", round.validity_ms());
    assert!(lease.release(&limits()).held());
}

#[test]
fn an_acquisition_slower_than_the_ttl_fails_and_leaves_nothing() {
    let proxied = Proxied::start(3);
    let token = new_token("");
    let lease = Lease::new(&proxied.nodes, b"slow", &token);
    proxied.set_delay(Duration::from_millis(100));
    let round = lease.try_acquire(150, &limits());
    assert!(!round.held(), "every node said yes, but too late: {:?} validity {}", round.votes, round.validity_ms());
    assert!(round.yes() >= 2, "a majority said yes");
    assert!(round.validity_ms() <= 0.0);
    // A node whose yes came after the deadline (a loaded machine) is released
    // without waiting for its reply: its key goes one proxy delay later.
    for r in &proxied.servers {
        assert!(eventually(|| r.dbsize() == 0), "a key was left: {}", r.dbsize());
    }
}

#[test]
fn retries_follow_retry_count_and_delay() {
    let servers: Vec<Redis> = (0..3).map(|_| Redis::start()).collect();
    for r in &servers {
        r.set(b"taken", b"foreign");
        r.try_cmd(&["CONFIG", "RESETSTAT"]).unwrap();
    }
    let nodes: Vec<Node> = servers.iter().map(|r| r.node(Duration::from_millis(500))).collect();
    let token = new_token("");
    let lease = Lease::new(&nodes, b"taken", &token);
    let start = Instant::now();
    let outcome = lease.acquire(10_000, Patience::Attempts { attempts: 3, delay: Duration::from_millis(200) }, &limits());
    let took = start.elapsed();
    assert!(matches!(outcome, Outcome::Refused));
    // Two pauses of 100..200 ms each, none after the last attempt.
    assert!(took >= Duration::from_millis(200) && took < Duration::from_millis(550), "{took:?}");
    for r in &servers {
        assert_eq!(r.calls("set"), 3, "three attempts");
        assert_eq!(r.get(b"taken"), Some(b"foreign".to_vec()));
    }
}

#[test]
fn a_master_that_reads_nothing_holds_up_no_round_once_its_buffers_are_full() {
    // A stopped master's socket takes our commands until the kernel's
    // buffers are full; then nothing more can be written to it. How much
    // they take is the kernel's choice (a receive buffer can grow to
    // tcp_rmem's maximum while nobody reads), so the rounds go on until the
    // master is seen to have taken nothing for a whole node timeout, however
    // long filling took. A round that waited for that write would wait the
    // node timeout (2 s): each round is decided by the live majority, and
    // the connection keeps the rest, in order.
    let servers = five();
    let nodes: Vec<Node> = servers.iter().map(|r| r.node(Duration::from_secs(2))).collect();
    let key = vec![b'k'; 64 * 1024];
    let token = new_token("");
    let lease = Lease::new(&nodes, &key, &token);
    assert!(!lease.release(&limits()).held()); // connect everywhere first
    servers[0].signal("-STOP");
    let stopped = Instant::now();
    let mut slowest = Duration::ZERO;
    let mut queued = 0; // SETs sent to the stopped master, or kept for it
    let mut last_unlock = Vote::Unanswered; // the last of those SETs' unlock there
    let failed = loop {
        assert!(stopped.elapsed() < Duration::from_secs(30), "the stopped master never counted as failed");
        let start = Instant::now();
        let round = lease.try_acquire(10_000, &limits());
        assert!(round.held(), "{:?}", round.votes);
        let unlock = lease.release(&limits());
        assert!(unlock.held());
        slowest = slowest.max(start.elapsed());
        if !matches!(round.votes[0], Vote::Unanswered) {
            break round.votes[0].clone();
        }
        queued += 1;
        last_unlock = unlock.votes[0].clone();
        // Each round queues 128 KiB more for it: a pause keeps that to
        // tens of MiB over the timeout.
        std::thread::sleep(Duration::from_millis(5));
    };
    assert!(slowest < Duration::from_millis(500), "a lock and unlock waited for the stopped master: {slowest:?}");
    // It counts as failed only once it has taken nothing for a whole timeout.
    assert!(stopped.elapsed() >= Duration::from_secs(2), "failed after {:?}", stopped.elapsed());
    assert!(matches!(&failed, Vote::Failed(e) if e.to_string().contains("no reply within 2 s")), "{failed:?}");

    // From then on it fails at once for a new call too, as a reply that did
    // not come, and nothing more is queued for it.
    let other = new_token("");
    let call = Lease::new(&nodes, &key, &other);
    let start = Instant::now();
    let round = call.try_acquire(10_000, &limits());
    assert!(round.held() && start.elapsed() < Duration::from_millis(500), "{:?} in {:?}", round.votes, start.elapsed());
    assert!(matches!(&round.votes[0], Vote::Failed(e) if e.to_string().contains("no reply within 2 s")), "{:?}", round.votes);

    // Resumed, it reads what it was sent, in order, on the one connection
    // it had: each lock with its unlock behind it. What the socket did not
    // take is written at the connection's next uses, as much each time as
    // the socket takes then (here the unlock of `other`, sent again until
    // every SET has run there and, where its unlock was queued, the key is
    // gone). The last SET's unlock may have come after the timeout was
    // reached: it failed at once, and that master keeps the key until its
    // TTL (a minority of the masters).
    servers[0].signal("-CONT");
    assert!(call.release(&limits()).held());
    let kept = matches!(&last_unlock, Vote::Failed(e) if e.to_string().contains("no reply within 2 s"));
    assert!(kept || last_unlock == Vote::Unanswered, "{last_unlock:?}");
    let drained = Instant::now() + Duration::from_secs(10);
    while servers[0].calls("set") < queued || !kept && servers[0].get(&key).is_some() {
        assert!(Instant::now() < drained, "{} of {queued} SETs ran on the resumed master", servers[0].calls("set"));
        call.release(&limits());
        std::thread::sleep(Duration::from_millis(10));
    }
    if kept {
        assert_eq!(servers[0].get(&key), Some(token.clone().into_bytes()), "the last SET's key, its unlock not sent");
        servers[0].try_cmd(&["DEL", std::str::from_utf8(&key).unwrap()]).unwrap();
    }
    for r in &servers {
        assert!(eventually(|| r.get(&key).is_none()), "no key of ours left on {}", r.port);
    }
    let list = servers[0].try_cmd(&["CLIENT", "LIST"]).unwrap();
    let list: String = redis::from_redis_value(list).unwrap();
    // (This test's own connections last ran GET or CLIENT LIST.)
    let ours = list.lines().filter(|l| !l.contains(" cmd=get ") && !l.contains(" cmd=client|list ")).count();
    assert_eq!(ours, 1, "one connection of ours: {list}");
}

#[test]
fn a_master_that_always_answers_last_gets_the_queues_script_back() {
    // A look is decided by the masters that answer first. One that lacks the
    // look's script (a fresh server, a restart, SCRIPT FLUSH) and whose
    // answer always comes after the others' (here a proxy delays it 50 ms)
    // says NOSCRIPT when nobody reads it any more. The next look sends the
    // script as text, so that master still keeps our place in its queue.
    let servers: Vec<Redis> = (0..3).map(|_| Redis::start()).collect();
    let proxy = Proxy::start(servers[1].port);
    let timeout = Duration::from_millis(500);
    let nodes = vec![servers[0].node(timeout), Node { server: proxy.server(), timeout, connect: timeout }, servers[2].node(timeout)];
    for r in &servers {
        r.try_cmd(&["SET", "k", "foreign", "PX", "60000"]).unwrap();
    }
    proxy.set_delay(Duration::from_millis(50));
    let token = new_token("");
    let deadline = Instant::now() + Duration::from_millis(800);
    let outcome = fair_quorum::acquire(&nodes, b"k", &token, 10_000, deadline, Duration::from_millis(100), &mut Gone::default(), &limits());
    assert_eq!(outcome, Ok(Outcome::Refused));

    let b = &servers[1];
    assert!(b.errors("NOSCRIPT") >= 1, "B said NOSCRIPT: {}", b.info("errorstats"));
    // Each look adds us to the queue's two sorted sets: B ran looks too.
    assert!(eventually(|| b.calls("zadd") >= 2), "{}", b.info("commandstats"));
    // The call left every queue: only the other owner's key is left.
    for r in &servers {
        assert!(eventually(|| r.dbsize() == 1), "keys left on {}", r.port);
    }
}
