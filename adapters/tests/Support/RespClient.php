<?php

declare(strict_types=1);

namespace RedisLock\Tests\Support;

/**
 * A minimal RESP2 client: the tests' independent view of what is in Redis
 * (not the extension, not phpredis).
 */
final class RespClient
{
    /** @var resource */
    private $socket;

    public function __construct(public readonly int $port, float $timeout = 5.0)
    {
        $socket = @stream_socket_client("tcp://127.0.0.1:$port", $errno, $error, $timeout);
        if ($socket === false) {
            throw new \RuntimeException("cannot connect to 127.0.0.1:$port: $error");
        }
        stream_set_timeout($socket, (int) ceil($timeout));
        $this->socket = $socket;
    }

    public function __destruct()
    {
        if (is_resource($this->socket)) {
            fclose($this->socket);
        }
    }

    public function command(string|int ...$args): mixed
    {
        $request = '*' . count($args) . "\r\n";
        foreach ($args as $arg) {
            $arg = (string) $arg;
            $request .= '$' . strlen($arg) . "\r\n" . $arg . "\r\n";
        }
        for ($written = 0; $written < strlen($request); $written += $n) {
            $n = fwrite($this->socket, substr($request, $written));
            if ($n === false || $n === 0) {
                throw new \RuntimeException('write to Redis failed');
            }
        }

        return $this->reply();
    }

    public function get(string $key): ?string
    {
        return $this->command('GET', $key);
    }

    public function pttl(string $key): int
    {
        return $this->command('PTTL', $key);
    }

    public function exists(string $key): bool
    {
        return $this->command('EXISTS', $key) === 1;
    }

    /** @return list<string> sorted */
    public function keys(string $pattern = '*'): array
    {
        $keys = $this->command('KEYS', $pattern);
        sort($keys);

        return $keys;
    }

    private function reply(): mixed
    {
        $line = fgets($this->socket);
        if ($line === false) {
            throw new \RuntimeException('no reply from Redis');
        }
        $payload = substr($line, 1, -2);
        switch ($line[0]) {
            case '+':
                return $payload;
            case '-':
                throw new \RuntimeException("Redis error: $payload");
            case ':':
                return (int) $payload;
            case '$':
                if ((int) $payload < 0) {
                    return null;
                }
                $data = '';
                $want = (int) $payload + 2;
                while (strlen($data) < $want) {
                    $chunk = fread($this->socket, $want - strlen($data));
                    if ($chunk === false || $chunk === '') {
                        throw new \RuntimeException('short bulk reply');
                    }
                    $data .= $chunk;
                }

                return substr($data, 0, -2);
            case '*':
                if ((int) $payload < 0) {
                    return null;
                }
                $items = [];
                for ($i = 0; $i < (int) $payload; $i++) {
                    $items[] = $this->reply();
                }

                return $items;
        }
        throw new \RuntimeException('protocol error: ' . $line);
    }
}
