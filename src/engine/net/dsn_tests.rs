//! The DSN parser's tests.
use super::*;

#[test]
fn parses_the_accepted_forms() {
    let s = Server::parse("redis://127.0.0.1:6380/2").unwrap();
    assert_eq!(s.addr, Addr::Tcp { host: "127.0.0.1".into(), port: 6380 });
    assert_eq!((s.db, s.tls, s.user.clone(), s.password.clone()), (2, false, None, None));
    assert_eq!(s.to_string(), "127.0.0.1:6380");

    let s = Server::parse("rediss://alice:p%40ss:w@cache.local").unwrap();
    assert_eq!(s.addr, Addr::Tcp { host: "cache.local".into(), port: 6379 });
    assert!(s.tls);
    assert_eq!((s.user.as_deref(), s.password.as_deref()), (Some("alice"), Some("p@ss:w")));

    let s = Server::parse("redis://:secret@[::1]:7000").unwrap();
    assert_eq!((s.user.clone(), s.password.as_deref()), (None, Some("secret")));
    assert_eq!(s.to_string(), "[::1]:7000");

    let s = Server::parse("unix:///run/redis.sock?db=3").unwrap();
    assert_eq!(s.addr, Addr::Unix("/run/redis.sock".into()));
    assert_eq!(s.db, 3);
    assert_eq!(s.to_string(), "/run/redis.sock");
}

#[test]
fn the_user_information_runs_to_the_last_at() {
    let s = Server::parse("redis://u:pa/ss?x@h:1/2").unwrap();
    assert_eq!(s.addr, Addr::Tcp { host: "h".into(), port: 1 });
    assert_eq!((s.user.as_deref(), s.password.as_deref(), s.db), (Some("u"), Some("pa/ss?x"), 2));
    let s = Server::parse("rediss://:a@b:c/d?e@host?db=4").unwrap();
    assert_eq!(s.addr, Addr::Tcp { host: "host".into(), port: 6379 });
    assert_eq!((s.user.as_deref(), s.password.as_deref(), s.db), (None, Some("a@b:c/d?e"), 4));
    // An @ after the user information must be %40: here it ends the user information.
    assert!(Server::parse("redis://h?password=a@b").is_err());
    let s = Server::parse("redis://h?password=a%40b").unwrap();
    assert_eq!(s.password.as_deref(), Some("a@b"));
}

#[test]
fn rejects_malformed_dsns_without_quoting_them() {
    for (dsn, want) in [
        ("http://x", "expected redis://"),
        ("127.0.0.1:6379", "expected redis://"),
        ("redis://", "host is missing"),
        ("redis://:6379", "host is missing"),
        ("redis://h:0", "invalid port (expected 1 to 65535)"),
        ("redis://h:70000", "invalid port (expected 1 to 65535)"),
        ("redis://h:+5", "invalid port"),
        ("redis://h/x", "invalid database index (expected 0 to 4294967295)"),
        ("redis://h/-1", "invalid database index"),
        ("redis://hunter2@h", "user:password"),
        ("unix://relative.sock", "absolute"),
        ("redis://h?hunter2=3", "unknown query parameter"),
        ("redis://[::1", "unclosed"),
        ("redis://u:hunter2/x:hunter2@h:hunter2", "invalid port"),
        ("redis://h/hunter2", "invalid database index"),
        ("redis://h:1?db=hunter2", "invalid database index"),
        ("redis://u:hunter2%zz@h", "invalid %-escape"),
        ("redis://u:hunter2\0@h", "null bytes (\\0)"),
        ("unix:///tmp/hunter2%00.sock", "null bytes (\\0)"),
    ] {
        let err = Server::parse(dsn).unwrap_err();
        assert!(err.contains(want), "{dsn}: {err}");
        assert!(!err.contains("hunter2") && !err.contains('"'), "{dsn}: {err}");
    }
}

#[test]
fn redact_hides_everything_up_to_the_last_at() {
    for (dsn, want) in [
        ("redis://u:s3cret@h:1/2", "redis://***@h:1/2"),
        ("rediss://:s3cret@h", "rediss://***@h"),
        ("redis://s3cret@h", "redis://***@h"),
        ("redis://h:1", "redis://h:1"),
        ("unix:///run/r.sock?db=1&password=s3cret", "unix:///run/r.sock?db=1&password=***"),
        ("redis://a:b@c@h", "redis://***@h"),
        ("redis://u:pa/ss?x@h:1/2", "redis://***@h:1/2"),
        ("redis://u:p:a@s/s?x=1&password=2@h:1/2?password=s3cret&db=1", "redis://***@h:1/2?password=***&db=1"),
        ("redis://h?password=s3c@ret", "redis://***@ret"),
        ("u:s3cret@h", "***@h"),
    ] {
        assert_eq!(redact(dsn), want, "{dsn}");
    }
}

#[test]
fn parses_cluster_and_sentinel_dsns() {
    let s = Server::parse("redis-cluster://u:p%40ss@10.0.0.1:7000,[::1]:7001,h?wait_replicas=1").unwrap();
    let seeds: Vec<String> = match &s.route {
        Route::Cluster(seeds) => seeds.iter().map(ToString::to_string).collect(),
        _ => panic!("not a cluster"),
    };
    assert_eq!(seeds, ["10.0.0.1:7000", "[::1]:7001", "h:6379"]);
    assert_eq!((s.user.as_deref(), s.password.as_deref(), s.wait_replicas, s.tls), (Some("u"), Some("p@ss"), Some(1), false));
    assert_eq!(s.to_string(), "cluster 10.0.0.1:7000,[::1]:7001,h:6379");
    assert!(Server::parse("rediss-cluster://h:1").unwrap().tls);

    let s = Server::parse("redis-sentinel://:pw@s1:26379,s2:26380/my%20master?db=2&sentinel_password=sp").unwrap();
    let Route::Sentinel(sentinels) = &s.route else { panic!("not sentinel") };
    assert_eq!((sentinels.master.as_str(), sentinels.password.as_deref(), sentinels.user.as_deref()), ("my master", Some("sp"), None));
    assert_eq!((s.password.as_deref(), s.db), (Some("pw"), 2));
    assert_eq!(s.to_string(), "master my master of sentinels s1:26379,s2:26380");
    let endpoint = s.at(Addr::Tcp { host: "m".into(), port: 1 });
    assert_eq!((endpoint.to_string(), endpoint.password.as_deref(), endpoint.db, endpoint.is_routed()), ("m:1".into(), Some("pw"), 2, false));
    assert!(s.is_routed() && !Server::parse("redis://h").unwrap().is_routed());
}

#[test]
fn rejects_malformed_deployment_dsns() {
    for (dsn, want) in [
        ("redis-cluster://h:1/0", "a cluster has only database 0"),
        ("redis-cluster://h:1?db=1", "unknown query parameter (known: user, password, wait_replicas)"),
        ("redis-cluster://h:1,,h:2", "host is missing"),
        ("redis-cluster://h:1,h:0", "invalid port"),
        ("redis-sentinel://s:1", "master name is missing"),
        ("redis-sentinel://s:1/m?x=1", "(known: db, user, password, wait_replicas, sentinel_user, sentinel_password)"),
        ("redis://h?wait_replicas=1001", "invalid wait_replicas (expected 0 to 1000)"),
        ("redis://h?wait_replicas=-1", "invalid wait_replicas"),
        ("redis-clusters://h", "expected redis://"),
    ] {
        let err = Server::parse(dsn).unwrap_err();
        assert!(err.contains(want), "{dsn}: {err}");
    }
    assert_eq!(redact("redis-sentinel://:pw@s:1/m?sentinel_password=sp&db=1"), "redis-sentinel://***@s:1/m?sentinel_password=***&db=1");
}

#[test]
fn debug_hides_the_password() {
    let s = Server::parse("redis://u:topsecret@h:1").unwrap();
    assert!(!format!("{s:?}").contains("topsecret"));
}
