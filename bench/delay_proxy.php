<?php
/**
 * A userspace TCP proxy that adds a fixed latency in each direction (the
 * kernel here has no netem):
 *
 *   php delay_proxy.php <upstream host:port> <delay ms>
 *
 * Listens on a free loopback port and prints "listening <port>" once it
 * accepts connections. Every accepted client gets its own connection to the
 * upstream server; each chunk read from either side is queued with a due
 * time of (time read + delay) and written to the other side when that time
 * comes. There is one queue per direction and connection, and the select()
 * timeout is the earliest due time, so the delay is latency, not a per-chunk
 * cost: chunks in flight overlap, as on a long wire, and the order of the
 * bytes is kept. One process, no threads, no busy waiting.
 *
 * Exits when stdin reaches EOF (the scenario that started it went away, even
 * if it was killed) or on SIGTERM.
 */

declare(strict_types=1);

[, $upstream, $delayMs] = $argv + [null, '', ''];
if (!preg_match('/^(.+):(\d+)$/', (string) $upstream, $m) || !is_numeric($delayMs) || (float) $delayMs < 0) {
    fwrite(STDERR, "usage: php delay_proxy.php <upstream host:port> <delay ms>\n");
    exit(2);
}
[$upHost, $upPort] = [$m[1], (int) $m[2]];
$delayNs = (int) round((float) $delayMs * 1e6);

// TCP_NODELAY on both legs: a small write must not wait for the ACK of the
// previous one (Nagle + delayed ACK would add up to 40 ms on loopback).
$context = stream_context_create(['socket' => ['tcp_nodelay' => true, 'backlog' => 64]]);
$listener = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr,
    STREAM_SERVER_BIND | STREAM_SERVER_LISTEN, $context);
if ($listener === false) {
    fwrite(STDERR, "delay_proxy: cannot listen: $errstr\n");
    exit(1);
}
stream_set_blocking($listener, false);
$port = (int) substr(strrchr(stream_socket_get_name($listener, false), ':'), 1);
echo "listening $port\n";

/**
 * One proxied connection: two sockets, and per direction a FIFO of
 * [due ns, bytes] waiting to be written to the destination.
 */
final class Pipe
{
    /** @var array<int, list<array{0: int, 1: string}>> keyed by destination socket id */
    public array $queue = [];
    /** @var array<int, bool> source socket id => it reached EOF */
    public array $eof = [];

    public function __construct(public $client, public $server)
    {
        $this->queue[(int) $client] = [];
        $this->queue[(int) $server] = [];
    }

    /** The other end of $sock. */
    public function peer($sock)
    {
        return $sock === $this->client ? $this->server : $this->client;
    }

    public function close(): void
    {
        @fclose($this->client);
        @fclose($this->server);
    }
}

/** @var array<int, Pipe> socket id => its pipe (each pipe is listed under both of its sockets) */
$pipes = [];
$stdin = STDIN;
stream_set_blocking($stdin, false);
$chunk = 65536;

/** Writes what is due on every pipe; closes pipes that ended. */
function flush_due(array &$pipes, int $now): void
{
    foreach ($pipes as $id => $pipe) {
        if ($id !== (int) $pipe->client) {
            continue; // each pipe once
        }
        $closed = false;
        foreach ([$pipe->client, $pipe->server] as $dest) {
            $q = &$pipe->queue[(int) $dest];
            while ($q && $q[0][0] <= $now) {
                $written = @fwrite($dest, $q[0][1]);
                if ($written === false) {
                    $closed = true; // the peer went away
                    break;
                }
                if ($written < strlen($q[0][1])) {
                    $q[0][1] = substr($q[0][1], $written);
                    break; // its buffer is full: select() waits for writability
                }
                array_shift($q);
            }
            unset($q);
        }
        // A side that reached EOF ends the pipe once what it sent has been delivered.
        foreach ([$pipe->client, $pipe->server] as $src) {
            if (!empty($pipe->eof[(int) $src]) && !$pipe->queue[(int) $pipe->peer($src)]) {
                $closed = true;
            }
        }
        if ($closed) {
            unset($pipes[(int) $pipe->client], $pipes[(int) $pipe->server]);
            $pipe->close();
        }
    }
}

for (;;) {
    $now = hrtime(true);
    flush_due($pipes, $now);

    $read = [$listener, $stdin];
    $write = [];
    $next = null; // earliest due time still in the future
    foreach ($pipes as $id => $pipe) {
        if ($id !== (int) $pipe->client) {
            continue;
        }
        foreach ([$pipe->client, $pipe->server] as $sock) {
            if (empty($pipe->eof[(int) $sock])) {
                $read[] = $sock;
            }
            $q = $pipe->queue[(int) $sock];
            if (!$q) {
                continue;
            }
            if ($q[0][0] <= $now) {
                $write[] = $sock; // due but its buffer was full
            } elseif ($next === null || $q[0][0] < $next) {
                $next = $q[0][0];
            }
        }
    }
    if ($next === null) {
        [$sec, $usec] = [null, null];
    } else {
        $us = max(0, intdiv($next - $now + 999, 1000));
        [$sec, $usec] = [intdiv($us, 1_000_000), $us % 1_000_000];
    }
    $w = $write ?: null;
    $except = null;
    if (@stream_select($read, $w, $except, $sec, $usec) === false) {
        continue; // EINTR
    }
    $now = hrtime(true);

    foreach ($read as $sock) {
        if ($sock === $stdin) {
            if (fread($stdin, 4096) === '' && feof($stdin)) {
                exit(0);
            }
            continue;
        }
        if ($sock === $listener) {
            $client = @stream_socket_accept($listener, 0);
            if ($client === false) {
                continue;
            }
            $server = @stream_socket_client("tcp://$upHost:$upPort", $errno, $errstr, 2.0,
                STREAM_CLIENT_CONNECT, $context);
            if ($server === false) {
                fwrite(STDERR, "delay_proxy: cannot reach $upHost:$upPort: $errstr\n");
                fclose($client);
                continue;
            }
            foreach ([$client, $server] as $s) {
                stream_set_blocking($s, false);
                stream_set_read_buffer($s, 0);
                stream_set_write_buffer($s, 0);
                if (function_exists('socket_import_stream')) {
                    // The context option covers connect(); set it on the accepted socket too.
                    $raw = socket_import_stream($s);
                    if ($raw) {
                        @socket_set_option($raw, SOL_TCP, TCP_NODELAY, 1);
                    }
                }
            }
            $pipe = new Pipe($client, $server);
            $pipes[(int) $client] = $pipe;
            $pipes[(int) $server] = $pipe;
            continue;
        }
        $pipe = $pipes[(int) $sock] ?? null;
        if ($pipe === null) {
            continue;
        }
        $data = @fread($sock, $chunk);
        if ($data === false || ($data === '' && feof($sock))) {
            $pipe->eof[(int) $sock] = true; // forwarded as a close once its bytes are delivered
            continue;
        }
        if ($data !== '') {
            $pipe->queue[(int) $pipe->peer($sock)][] = [$now + $delayNs, $data];
        }
    }
}
