<?php

declare(strict_types=1);

namespace RedisLock\Tests\Support;

/**
 * A real redis-server on a free loopback port, in a temporary directory,
 * started by the test and killed by it (outages, a second server). Never a
 * Redis it did not start.
 */
final class ThrowawayRedis
{
    /** @var resource|null */
    private $process;
    private bool $stopped = false;

    private function __construct(public readonly int $port, public readonly int $pid, $process, private string $dir)
    {
        $this->process = $process;
    }

    public static function start(): self
    {
        for ($try = 0; $try < 5; $try++) {
            $probe = stream_socket_server('tcp://127.0.0.1:0', $errno, $error);
            $port = (int) substr(strrchr(stream_socket_get_name($probe, false), ':'), 1);
            fclose($probe);
            $dir = sys_get_temp_dir() . '/redis_lock_adapters_' . getmypid() . '_' . $port . '_' . bin2hex(random_bytes(4));
            @mkdir($dir, 0700, true);
            $process = proc_open(
                ['redis-server', '--bind', '127.0.0.1', '--port', (string) $port, '--dir', $dir,
                    '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--logfile', $dir . '/redis.log'],
                [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']],
                $pipes,
            );
            if (!is_resource($process)) {
                throw new \RuntimeException('cannot run redis-server (apt-get install redis-server)');
            }
            $pid = proc_get_status($process)['pid'];
            $server = new self($port, $pid, $process, $dir);
            $deadline = microtime(true) + 5;
            while (microtime(true) < $deadline) {
                try {
                    // Ours: not another test's server that took the port between the probe and the start.
                    $info = (string) (new RespClient($port, 0.5))->command('INFO', 'server');
                    if (preg_match('/^process_id:(\d+)/m', $info, $m) === 1 && (int) $m[1] === $pid) {
                        return $server;
                    }
                } catch (\RuntimeException) {
                }
                if (!proc_get_status($process)['running']) {
                    break;
                }
                usleep(20000);
            }
            $server->kill();
        }
        throw new \RuntimeException('could not start redis-server');
    }

    public function dsn(): string
    {
        return 'redis://127.0.0.1:' . $this->port;
    }

    public function client(): RespClient
    {
        return new RespClient($this->port);
    }

    /** SIGSTOP: it accepts connections and never answers. */
    public function freeze(): void
    {
        posix_kill($this->pid, SIGSTOP);
        $this->stopped = true;
    }

    public function thaw(): void
    {
        posix_kill($this->pid, SIGCONT);
        $this->stopped = false;
    }

    /** SIGKILL, and wait until it is gone (connections are refused from then on). */
    public function kill(): void
    {
        if ($this->process === null) {
            return;
        }
        if ($this->stopped) {
            $this->thaw();
        }
        posix_kill($this->pid, SIGKILL);
        proc_close($this->process);
        $this->process = null;
        @unlink($this->dir . '/redis.log');
        @rmdir($this->dir);
    }

    public function __destruct()
    {
        $this->kill();
    }
}
