<?php

declare(strict_types=1);

namespace RedisLock\Tests\Support;

/**
 * Another PHP process (tests/child.php running $code), talking to the test
 * line by line over its stdin/stdout. Started with proc_open without a shell,
 * so pid() is the PHP process itself.
 */
final class Child
{
    /** @var resource|null */
    private $process;
    /** @var array<int, resource> */
    private array $pipes;
    private string $buffer = '';
    private string $stderr = '';
    private ?int $exitCode = null;
    private ?int $termSignal = null;
    public readonly int $pid;

    private function __construct(string $code)
    {
        $command = [PHP_BINARY];
        if ($so = getenv('REDIS_LOCK_SO')) {
            $command[] = '-d';
            $command[] = 'extension=' . $so;
        }
        $command[] = dirname(__DIR__) . '/child.php';
        $command[] = $code;
        $process = proc_open($command, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        if (!is_resource($process)) {
            throw new \RuntimeException('cannot start a child PHP process');
        }
        stream_set_blocking($pipes[1], false);
        stream_set_blocking($pipes[2], false);
        $this->process = $process;
        $this->pipes = $pipes;
        $this->pid = proc_get_status($process)['pid'];
    }

    public static function run(string $code): self
    {
        return new self($code);
    }

    /** The next line the child wrote; fails after $timeout seconds or at its end. */
    public function readLine(float $timeout = 10.0): string
    {
        $deadline = microtime(true) + $timeout;
        while (($newline = strpos($this->buffer, "\n")) === false) {
            $left = $deadline - microtime(true);
            if ($left <= 0) {
                throw new \RuntimeException("no line from the child within {$timeout} s; so far: " . $this->describe());
            }
            $read = [$this->pipes[1], $this->pipes[2]];
            $write = $except = null;
            if (@stream_select($read, $write, $except, 0, (int) min(200000, $left * 1e6)) > 0) {
                foreach ($read as $stream) {
                    $chunk = (string) fread($stream, 65536);
                    if ($stream === $this->pipes[1]) {
                        $this->buffer .= $chunk;
                    } else {
                        $this->stderr .= $chunk;
                    }
                }
            }
            if (feof($this->pipes[1]) && strpos($this->buffer, "\n") === false) {
                throw new \RuntimeException('the child ended without the expected line: ' . $this->describe());
            }
        }
        $line = substr($this->buffer, 0, $newline);
        $this->buffer = substr($this->buffer, $newline + 1);

        return $line;
    }

    public function send(string $line): void
    {
        fwrite($this->pipes[0], $line . "\n");
        fflush($this->pipes[0]);
    }

    /** Waits for the child to end; its exit code (128 + signal when killed). */
    public function wait(float $timeout = 10.0): int
    {
        $deadline = microtime(true) + $timeout;
        while ($this->process !== null) {
            $status = proc_get_status($this->process);
            if (!$status['running']) {
                $this->exitCode = $status['signaled'] ? 128 + $status['termsig'] : $status['exitcode'];
                $this->termSignal = $status['signaled'] ? $status['termsig'] : null;
                $this->drain();
                foreach ($this->pipes as $pipe) {
                    fclose($pipe);
                }
                proc_close($this->process);
                $this->process = null;
                break;
            }
            if (microtime(true) > $deadline) {
                $this->kill();
                throw new \RuntimeException("the child did not end within {$timeout} s: " . $this->describe());
            }
            $this->drain();
            usleep(10000);
        }

        return $this->exitCode;
    }

    public function kill(int $signal = SIGKILL): void
    {
        if ($this->process !== null) {
            posix_kill($this->pid, $signal);
        }
    }

    /** Whatever the child wrote that was not read as lines yet (after wait()). */
    public function rest(): string
    {
        return $this->buffer;
    }

    public function stderr(): string
    {
        return $this->stderr;
    }

    public function __destruct()
    {
        if ($this->process !== null) {
            $this->kill();
            $this->wait();
        }
    }

    private function drain(): void
    {
        foreach ([1, 2] as $i) {
            while (is_resource($this->pipes[$i]) && ($chunk = fread($this->pipes[$i], 65536)) !== false && $chunk !== '') {
                if ($i === 1) {
                    $this->buffer .= $chunk;
                } else {
                    $this->stderr .= $chunk;
                }
            }
        }
    }

    private function describe(): string
    {
        return 'stdout ' . json_encode($this->buffer) . ', stderr ' . json_encode($this->stderr);
    }
}
