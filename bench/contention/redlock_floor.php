<?php
/**
 * Not a usable lock: the floor of any hand-off over RedLock's 5 masters (the
 * scenario's server and the 4 that BENCH_REDLOCK_MORE lists). One token in a
 * list on each master; the holder has all five. release() pushes them back
 * in one round (the first master's last, so that the others are on their
 * way when it wakes the next waiter); acquire() is BLPOP on the first master
 * (Redis serves blocked clients in the order they blocked, as token_floor)
 * and then one round of LPOP on the other four, asking again where a token
 * is not back yet. Two rounds over five servers per hand-off and nothing
 * else: no TTL, no owner, no majority, no script. Raw RESP on five sockets,
 * each round written to all of them before any answer is read. It shows
 * what this machine allows a hand-off over five masters at all; never in
 * the default list (BENCH_CONTENTION_IMPLS=redlock_floor).
 */

declare(strict_types=1);

namespace Bench;

return fn (string $host, int $port): BlockingContender => new class ($host, $port) implements BlockingContender {
    /** @var list<resource> the first master's socket first */
    private array $socks = [];
    private ?string $list = null;
    /** @var array<string, true> */
    private array $seen = [];

    public function __construct(string $host, int $port)
    {
        $context = stream_context_create(['socket' => ['tcp_nodelay' => true]]);
        foreach (redlock_masters($host, $port) as [$h, $p]) {
            $sock = @stream_socket_client("tcp://$h:$p", $errno, $error, 1.0, STREAM_CLIENT_CONNECT, $context);
            $sock !== false || fail("cannot connect to $h:$p: $error");
            stream_set_timeout($sock, CONTENTION_TIMEOUT_SECONDS + 5);
            $this->socks[] = $sock;
        }
    }

    public function redisKey(string $key): string
    {
        return "$key:held"; // never exists: the tokens' lists stay, by design
    }

    public function acquire(string $key): void
    {
        $list = "$key:token";
        // The first process to come puts the tokens in, the first master's last.
        if (!isset($this->seen[$key])) {
            $this->send([0], ['SET', "$key:init", '1', 'NX']);
            if ($this->read(0) === 'OK') {
                $this->round([1, 2, 3, 4], ['RPUSH', $list, 't']);
                $this->round([0], ['RPUSH', $list, 't']);
            }
            $this->seen[$key] = true;
        }
        $this->send([0], ['BLPOP', $list, (string) CONTENTION_TIMEOUT_SECONDS]);
        $this->read(0) !== null || fail('no token within ' . CONTENTION_TIMEOUT_SECONDS . ' s');
        $this->list = $list;
        // The others' tokens: the release pushed them before the first master's.
        for ($missing = [1, 2, 3, 4], $tries = 0; $missing; $tries++) {
            $tries < 100000 || fail('a token did not come back on every master');
            $got = $this->round($missing, ['LPOP', $list]);
            $missing = array_values(array_filter($missing, fn ($i) => $got[$i] === null));
        }
    }

    public function release(): void
    {
        $pushed = $this->round([1, 2, 3, 4, 0], ['RPUSH', $this->list, 't']);
        $pushed === [1 => 1, 2 => 1, 3 => 1, 4 => 1, 0 => 1] || fail('a token list was not empty at release');
    }

    /** @return array<int, mixed> each master's answer, by index */
    private function round(array $masters, array $cmd): array
    {
        $this->send($masters, $cmd);
        $out = [];
        foreach ($masters as $i) {
            $out[$i] = $this->read($i);
        }
        return $out;
    }

    private function send(array $masters, array $cmd): void
    {
        $wire = '*' . count($cmd) . "\r\n" . implode('', array_map(fn ($a) => '$' . strlen($a) . "\r\n$a\r\n", $cmd));
        foreach ($masters as $i) {
            fwrite($this->socks[$i], $wire) === strlen($wire) || fail("write to master $i failed");
        }
    }

    /** One RESP2 answer: an integer, a string, null, or a list of strings. */
    private function read(int $i): mixed
    {
        $line = fgets($this->socks[$i]);
        $line !== false || fail("no answer from master $i");
        $body = substr($line, 1, -2);
        return match ($line[0]) {
            ':' => (int) $body,
            '+' => $body,
            '$' => $body === '-1' ? null : substr((string) stream_get_contents($this->socks[$i], (int) $body + 2), 0, -2),
            '*' => $body === '-1' ? null : array_map(fn () => $this->read($i), range(1, (int) $body)),
            default => fail("master $i: " . trim($line)),
        };
    }
};
