//! The engine against real Redis servers: acquire, release, extend, the
//! quorum, lost replies, lost script caches, hung and dead nodes.

mod common;

use std::time::{Duration, Instant};

use common::{Proxied, Proxy, Redis};
use redis_lock::engine::net::conn::Limits;
use redis_lock::engine::error::Cause;
use redis_lock::engine::features::lease::{Lease, Patience};
use redis_lock::engine::features::token::new_token;
use redis_lock::engine::round::quorum::{quorum, Outcome};
use redis_lock::engine::round::{Node, Vote};

const T: Duration = Duration::from_millis(500);

fn limits() -> Limits {
    Limits { connect: Duration::from_millis(500), read: T, tls_ca_file: None }
}

fn once() -> Patience {
    Patience::Attempts { attempts: 1, delay: Duration::ZERO }
}

#[test]
fn acquire_sets_our_token_with_the_ttl_and_release_deletes_it() {
    let redis = Redis::start();
    let nodes = [redis.node(T)];
    let token = new_token("");
    let lease = Lease::new(&nodes, b"lock:a", &token);

    let round = lease.try_acquire(20_000, &limits());
    assert!(round.held());
    assert!(round.validity_ms() > 19_000.0 && round.validity_ms() < 20_000.0 - 202.0 + 1.0, "{}", round.validity_ms());
    assert_eq!(redis.get(b"lock:a"), Some(token.clone().into_bytes()));
    let pttl = redis.pttl(b"lock:a");
    assert!(pttl > 19_000 && pttl <= 20_000, "{pttl}");

    assert!(lease.release(&limits()).held());
    assert_eq!(redis.get(b"lock:a"), None);
    assert!(!lease.release(&limits()).held(), "a second release finds nothing of ours");
}

#[test]
fn a_held_key_is_refused_and_never_touched() {
    let redis = Redis::start();
    redis.set(b"k", b"foreign");
    let nodes = [redis.node(T)];
    let token = new_token("");
    let lease = Lease::new(&nodes, b"k", &token);

    assert_eq!(lease.try_acquire(5_000, &limits()).votes, vec![Vote::No]);
    assert!(!lease.release(&limits()).held());
    assert!(!lease.extend(5_000, &limits()).held());
    assert_eq!(redis.get(b"k"), Some(b"foreign".to_vec()));
    assert_eq!(redis.pttl(b"k"), -1, "the foreign key keeps its (absent) TTL");
}

#[test]
fn extend_sets_a_new_ttl_only_while_the_token_holds() {
    let redis = Redis::start();
    let nodes = [redis.node(T)];
    let token = new_token("");
    let lease = Lease::new(&nodes, b"e", &token);
    assert!(lease.try_acquire(1_000, &limits()).held());
    let round = lease.extend(60_000, &limits());
    assert!(round.held() && round.validity_ms() > 59_000.0);
    assert!(redis.pttl(b"e") > 59_000);

    redis.set(b"e", b"thief");
    assert!(!lease.extend(60_000, &limits()).held());
    assert_eq!(redis.pttl(b"e"), -1);
}

#[test]
fn waiting_stops_at_the_deadline_and_pauses_between_attempts() {
    let redis = Redis::start();
    redis.set(b"busy", b"foreign");
    let nodes = [redis.node(T)];
    let token = new_token("");
    let lease = Lease::new(&nodes, b"busy", &token);
    redis.try_cmd(&["CONFIG", "RESETSTAT"]).unwrap();

    let start = Instant::now();
    let deadline = start + Duration::from_millis(600);
    let outcome = lease.acquire(5_000, Patience::Until { deadline, pause: Duration::from_millis(250) }, &limits());
    let took = start.elapsed();
    assert!(matches!(outcome, Outcome::Refused));
    assert!(took >= Duration::from_millis(600) && took < Duration::from_millis(900), "{took:?}");
    // Attempts at 0, 250, 500 and 600 ms (the last one at the deadline).
    assert_eq!(redis.calls("set"), 4);
}

#[test]
fn an_outage_ends_a_wait_at_once() {
    let nodes = [Node { server: redis_lock::engine::net::dsn::Server::tcp("127.0.0.1", common::free_port()), timeout: T, connect: T }];
    let token = new_token("");
    let lease = Lease::new(&nodes, b"x", &token);
    let start = Instant::now();
    let deadline = start + Duration::from_secs(5);
    match lease.acquire(5_000, Patience::Until { deadline, pause: Duration::from_millis(10) }, &limits()) {
        Outcome::Unreachable(errors) => {
            assert_eq!(errors.len(), 1);
            assert!(matches!(errors[0].cause, Cause::Connect(_)), "{:?}", errors[0]);
            assert!(errors[0].to_string().starts_with(&format!("Redis at 127.0.0.1:{}: cannot connect:", nodes[0].server.to_string().rsplit(':').next().unwrap())));
        }
        other => panic!("{other:?}"),
    }
    assert!(start.elapsed() < Duration::from_secs(1));
}

#[test]
fn a_lost_reply_on_a_pooled_connection_leaves_no_orphan() {
    let redis = Redis::start();
    let proxy = Proxy::start(redis.port);
    let nodes = [Node { server: proxy.server(), timeout: T, connect: T }];
    let token = new_token("");
    let lease = Lease::new(&nodes, b"lost", &token);
    // Warm the pool through the proxy, then lose the reply of the next SET.
    assert!(!lease.release(&limits()).held());
    proxy.drop_next_reply.store(true, std::sync::atomic::Ordering::SeqCst);

    let round = lease.try_acquire(10_000, &limits());
    assert!(round.held(), "the resend recognises our own token: {:?}", round.votes);
    assert_eq!(redis.get(b"lost"), Some(token.clone().into_bytes()));
    assert!(lease.release(&limits()).held());
    assert_eq!(redis.dbsize(), 0);
}

#[test]
fn a_flushed_script_cache_falls_back_to_eval() {
    let redis = Redis::start();
    let nodes = [redis.node(T)];
    let token = new_token("");
    let lease = Lease::new(&nodes, b"f", &token);
    assert!(lease.try_acquire(10_000, &limits()).held());
    redis.try_cmd(&["SCRIPT", "FLUSH"]).unwrap();
    assert!(lease.release(&limits()).held());
    assert_eq!(redis.get(b"f"), None);
}

#[test]
fn a_restarted_server_gets_a_new_connection() {
    let mut redis = Redis::start();
    let nodes = [redis.node(T)];
    let token = new_token("");
    let lease = Lease::new(&nodes, b"r", &token);
    assert!(lease.try_acquire(10_000, &limits()).held());
    redis.restart();
    redis.set(b"r", token.as_bytes()); // as if the key had survived the restart
    assert!(lease.release(&limits()).held(), "stale connection replaced, script re-sent");
    assert_eq!(redis.get(b"r"), None);
}

#[test]
fn a_hung_server_times_out_and_its_late_reply_is_never_read() {
    let redis = Redis::start();
    let nodes = [redis.node(Duration::from_millis(300))];
    let token = new_token("");
    let lease = Lease::new(&nodes, b"h", &token);
    assert!(!lease.release(&limits()).held()); // pooled connection
    redis.signal("-STOP");
    let start = Instant::now();
    let round = lease.try_acquire(10_000, &limits());
    let took = start.elapsed();
    redis.signal("-CONT");
    assert!(!round.held());
    assert!(matches!(&round.votes[0], Vote::Failed(e) if matches!(e.cause, Cause::Timeout(_))), "{:?}", round.votes);
    assert!(took >= Duration::from_millis(300) && took < Duration::from_millis(1500), "{took:?}");

    // The SET sent before the pause may have run after it; the release that
    // followed the failed round ran on a new connection. A new round must
    // see only answers to its own commands.
    std::thread::sleep(Duration::from_millis(100));
    let token2 = new_token("");
    let lease2 = Lease::new(&nodes, b"h", &token2);
    let round = lease2.try_acquire(10_000, &limits());
    if redis.get(b"h") == Some(token.clone().into_bytes()) {
        // The late SET ran after our release: the key is the first token's,
        // and the second lease must have been refused, not confused.
        assert!(!round.held());
    } else {
        assert!(round.held(), "{:?}", round.votes);
        assert_eq!(redis.get(b"h"), Some(token2.clone().into_bytes()));
    }
}

#[test]
fn the_quorum_decides_over_five_nodes() {
    let servers: Vec<Redis> = (0..5).map(|_| Redis::start()).collect();
    let nodes: Vec<Node> = servers.iter().map(|r| r.node(T)).collect();
    for n in 1..=5 {
        let nodes = &nodes[..n];
        for busy_mask in 0u32..(1 << n) {
            for (i, r) in servers[..n].iter().enumerate() {
                r.try_cmd(&["FLUSHALL"]).unwrap();
                if busy_mask & (1 << i) != 0 {
                    r.set(b"q", b"foreign");
                }
            }
            let free = n - busy_mask.count_ones() as usize;
            let token = new_token("");
            let lease = Lease::new(nodes, b"q", &token);
            let round = lease.try_acquire(10_000, &limits());
            assert_eq!(round.held(), free >= quorum(n), "n={n} busy={busy_mask:b}");
            for (i, r) in servers[..n].iter().enumerate() {
                let value = r.get(b"q");
                if busy_mask & (1 << i) != 0 {
                    assert_eq!(value, Some(b"foreign".to_vec()), "foreign key kept, n={n} node {i}");
                } else if round.held() {
                    assert_eq!(value, Some(token.clone().into_bytes()));
                } else {
                    assert_eq!(value, None, "nothing of ours left, n={n} busy={busy_mask:b} node {i}");
                }
            }
            if round.held() {
                assert!(lease.release(&limits()).held());
            }
        }
    }
}

#[test]
fn a_dead_minority_is_a_failed_vote_and_a_dead_majority_is_an_outage() {
    let mut servers: Vec<Redis> = (0..5).map(|_| Redis::start()).collect();
    let nodes: Vec<Node> = servers.iter().map(|r| r.node(T)).collect();
    servers[0].kill();
    servers[1].kill();
    let token = new_token("");
    let lease = Lease::new(&nodes, b"m", &token);
    let round = lease.try_acquire(10_000, &limits());
    assert!(round.held() && round.yes() == 3 && round.failures().len() == 2);
    assert!(lease.release(&limits()).held());

    servers[2].kill();
    match lease.acquire(10_000, once(), &limits()) {
        Outcome::Unreachable(errors) => assert_eq!(errors.len(), 3),
        other => panic!("{other:?}"),
    }
    for r in &servers[3..] {
        assert_eq!(r.dbsize(), 0, "nothing left on the live nodes");
    }
}

#[test]
fn the_fan_out_costs_one_round_trip_not_n() {
    let proxied = Proxied::start(3);
    let token = new_token("");
    let lease = Lease::new(&proxied.nodes, b"rtt", &token);
    proxied.set_delay(Duration::from_millis(100));
    let start = Instant::now();
    assert!(lease.try_acquire(10_000, &limits()).held());
    let took = start.elapsed();
    // One delayed round trip is 200 ms; three sequential ones would be 600 ms.
    assert!(took >= Duration::from_millis(200) && took < Duration::from_millis(450), "{took:?}");
}
