--TEST--
Harness: RlSentinels starts a master, a replica and 3 sentinels that agree on the master and know each other; failover() swaps master and replica (data kept, every sentinel follows); with 'password' and 'sentinel_password' both the servers and the sentinels require AUTH, and failover() still works with a sentinel killed
--FILE--
<?php
require __DIR__ . '/../inc/sentinel.inc';

// A fresh raw connection: the reply to each command, error replies as "ERR-CODE" words.
$raw = function (int $port, array ...$cmds): string {
    $c = new RespClient("tcp://127.0.0.1:$port");
    $out = array_map(function (array $cmd) use ($c): string {
        $r = $c->cmd(...$cmd);
        return $r instanceof RespError ? strtok($r->message, ' ') : json_encode($r);
    }, $cmds);
    $c->close();
    return implode(' ', $out);
};

foreach ([[], ['password' => 'pa ss"w', 'sentinel_password' => 'sent pass']] as $opt) {
    $s = RlSentinels::start($opt);
    $m = $s->master();
    $r = $s->replica();
    // M and R: the first master and replica; S1..S3 the sentinels.
    $mask = function (string $text) use ($m, $r, $s): string {
        $names = [$m->port => 'M', $r->port => 'R'] + array_combine($s->sentinelPorts(), ['S1', 'S2', 'S3']);
        return preg_replace_callback('/(127\.0\.0\.1(?::|",|","))(\d+)/', fn ($x) => $x[1] . ($names[(int) $x[2]] ?? 'unknown'), $text);
    };
    $alive = [0, 1, 2];
    // The reply of each live sentinel to a SENTINEL command.
    $sentinels = function (string ...$cmd) use ($s, &$alive): string {
        return implode(' ', array_map(fn (int $i) => json_encode($s->sentinelCmd($i, 'SENTINEL', ...$cmd)), $alive));
    };
    echo "== options: ", json_encode($opt), "\n";
    echo "dsn: ", $mask($s->dsn()), ", with query and name: ", $mask($s->dsn('timeout=1', 'other')), "\n";
    echo "roles: M ", $m->cmd('ROLE')[0], ", R ", $mask(json_encode(array_slice($r->cmd('ROLE'), 0, 4))), "\n";
    echo "sentinels name: ", $mask($sentinels('GET-MASTER-ADDR-BY-NAME', 'mymaster')), "\n";
    echo "sentinels know: ", implode(' ', array_map(function (int $i) use ($s): string {
        $flat = $s->sentinelCmd($i, 'SENTINEL', 'MASTER', 'mymaster');
        $f = [];
        foreach (array_chunk($flat, 2) as [$k, $v]) {
            $f[$k] = $v;
        }
        return "{$f['flags']}/quorum {$f['quorum']}/{$f['num-slaves']} replica/{$f['num-other-sentinels']} others";
    }, $alive)), "\n";
    echo "CKQUORUM: ", $s->sentinelCmd(1, 'SENTINEL', 'CKQUORUM', 'mymaster'), "\n";
    if (isset($opt['password'])) {
        echo "M without, with a wrong, with the password: ", $raw($m->port, ['PING'], ['AUTH', 'nope'], ['PING'], ['AUTH', $opt['password']], ['PING']), "\n";
        echo "S2 without, with a wrong, with the password: ", $raw($s->sentinelPorts()[1], ['SENTINEL', 'MASTERS'], ['AUTH', 'nope'], ['PING'], ['AUTH', $opt['sentinel_password']], ['PING']), "\n";
        $s->killSentinel(0);
        $alive = [1, 2];
        echo "S1 killed: ", $mask(rl_show(rl_timed(fn () => $raw($s->sentinelPorts()[0], ['PING']))[0])), "\n";
    } else {
        echo "no AUTH needed: ", $raw($m->port, ['PING']), ' ', $raw($s->sentinelPorts()[1], ['PING']), "\n";
        $s->pauseSentinel(0);
        $sock = stream_socket_client("tcp://127.0.0.1:{$s->sentinelPorts()[0]}");
        fwrite($sock, "PING\r\n");
        stream_set_timeout($sock, 0, 300000);
        echo "S1 paused: ", json_encode(fgets($sock)), ", resumed: ";
        $s->resumeSentinel(0);
        stream_set_timeout($sock, 5);
        echo json_encode(fgets($sock)), "\n";
    }

    // Acknowledged by the replica first: a Sentinel failover does not wait for the replica to catch up.
    echo "SET on M: ", $m->cmd('SET', 'k', 'written on M'), ", WAIT: ", $m->cmd('WAIT', 1, 5000), "\n";
    $s->failover();
    echo "failover: master() is ", $s->master() === $r ? 'R' : 'M', ", replica() is ", $s->replica() === $m ? 'M' : 'R',
        ", M ", $mask(json_encode(array_slice($m->cmd('ROLE'), 0, 4))), "\n";
    echo "sentinels name: ", $mask($sentinels('GET-MASTER-ADDR-BY-NAME', 'mymaster')), "\n";
    echo "GET on R: ", $r->cmd('GET', 'k'), ", SET on M: ", strtok((string) $m->cmd('SET', 'k', 'x'), ' '), ", on R: ", $r->cmd('SET', 'k', 'written on R'),
        ", M gets it: ", rl_eventually(fn () => $m->cmd('GET', 'k'), 'written on R', 5), "\n";
}
?>
--EXPECT--
== options: []
dsn: redis-sentinel://127.0.0.1:S1,127.0.0.1:S2,127.0.0.1:S3/mymaster, with query and name: redis-sentinel://127.0.0.1:S1,127.0.0.1:S2,127.0.0.1:S3/other?timeout=1
roles: M master, R ["slave","127.0.0.1",M,"connected"]
sentinels name: ["127.0.0.1","M"] ["127.0.0.1","M"] ["127.0.0.1","M"]
sentinels know: master/quorum 2/1 replica/2 others master/quorum 2/1 replica/2 others master/quorum 2/1 replica/2 others
CKQUORUM: OK 3 usable Sentinels. Quorum and failover authorization can be reached
no AUTH needed: "PONG" "PONG"
S1 paused: false, resumed: "+PONG\r\n"
SET on M: OK, WAIT: 1
failover: master() is R, replica() is M, M ["slave","127.0.0.1",R,"connected"]
sentinels name: ["127.0.0.1","R"] ["127.0.0.1","R"] ["127.0.0.1","R"]
GET on R: written on M, SET on M: READONLY, on R: OK, M gets it: written on R
== options: {"password":"pa ss\"w","sentinel_password":"sent pass"}
dsn: redis-sentinel://:pa ss"w@127.0.0.1:S1,127.0.0.1:S2,127.0.0.1:S3/mymaster, with query and name: redis-sentinel://:pa ss"w@127.0.0.1:S1,127.0.0.1:S2,127.0.0.1:S3/other?timeout=1
roles: M master, R ["slave","127.0.0.1",M,"connected"]
sentinels name: ["127.0.0.1","M"] ["127.0.0.1","M"] ["127.0.0.1","M"]
sentinels know: master/quorum 2/1 replica/2 others master/quorum 2/1 replica/2 others master/quorum 2/1 replica/2 others
CKQUORUM: OK 3 usable Sentinels. Quorum and failover authorization can be reached
M without, with a wrong, with the password: NOAUTH WRONGPASS NOAUTH "OK" "PONG"
S2 without, with a wrong, with the password: NOAUTH WRONGPASS NOAUTH "OK" "PONG"
S1 killed: RuntimeException: cannot connect to tcp://127.0.0.1:S1: Connection refused
SET on M: OK, WAIT: 1
failover: master() is R, replica() is M, M ["slave","127.0.0.1",R,"connected"]
sentinels name: ["127.0.0.1","R"] ["127.0.0.1","R"]
GET on R: written on M, SET on M: READONLY, on R: OK, M gets it: written on R
