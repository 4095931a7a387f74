//! The queue against a real Redis server: a waiter's blocking pop is
//! answered only at a tick of the server's event loop, and that is no
//! read timeout.

mod common;

use std::time::{Duration, Instant};

use common::Redis;
use redis_lock::engine::features::queue;
use redis_lock::engine::features::token::new_token;
use redis_lock::engine::net::conn::Limits;
use redis_lock::engine::round::quorum::Outcome;

#[test]
fn a_waiter_keeps_its_place_when_its_blocking_pop_ends_at_a_tick() {
    // hz 1: a 10 ms pop is answered up to 1 s later, well past a 0.3 s
    // read_timeout. Before the tick was allowed, every look timed out: the
    // waiter left its queue and joined again, and the wait ended with an
    // outage after connect + read timeout.
    let redis = Redis::start_with(&["--hz", "1"]);
    let read = Duration::from_millis(300);
    let node = redis.node(read);
    let limits = Limits { connect: Duration::from_millis(500), read, tls_ca_file: None };
    // Held by a process of ours (an owner token: never marked), whose
    // release would wake the waiter: it blocks as usual.
    let holder = new_token("").to_uppercase();
    redis.set(b"lock:held", holder.as_bytes());
    redis.try_cmd(&["CONFIG", "RESETSTAT"]).expect("CONFIG RESETSTAT");

    let started = Instant::now();
    let deadline = started + Duration::from_millis(2500);
    let (outcome, _) = queue::acquire(&node, b"lock:held", &new_token(""), 20_000, deadline, Duration::from_millis(10), &limits);
    let waited = started.elapsed();

    assert_eq!(outcome, Outcome::Refused, "the wait ends at its deadline as a plain refusal");
    assert!(waited >= Duration::from_millis(2500) && waited < Duration::from_millis(4000), "waited {waited:?}");
    assert!(redis.calls("blpop") >= 2, "it looked again after a tick: {} pops", redis.calls("blpop"));
    assert_eq!(redis.calls("rpush"), 1, "it joined the queue once");
    assert_eq!(redis.calls("zrem"), 1, "it gave its place up once, at the deadline");
    assert_eq!(redis.get(b"lock:held").as_deref(), Some(holder.as_bytes()));
}
