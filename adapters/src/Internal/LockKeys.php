<?php

declare(strict_types=1);

namespace RedisLock\Internal;

/**
 * Lists the lock keys under a prefix on one Redis server (SCAN … TYPE
 * string), for flushing a store's locks. The extension offers no such listing
 * yet, so this opens its own connection, from the same redis_lock.server DSN:
 * redis://, rediss:// and unix:// with user, password and database, the
 * extension's connect and read timeouts and its TLS CA file; a Cluster or
 * Sentinel DSN is refused. Only keys are read here: the locks are
 * released through the extension (RedisMutexLock::forceRelease()).
 *
 * The extension's own keys of a lock K (queue, waiters, fencing counter) are
 * "{K}:…" (they do not start with a prefix that does not start with "{"), or,
 * when K has a hash tag, K . ":q" and so on: of these only the fencing
 * counter K . ":f" is a string, and it is left out.
 *
 * @internal
 */
final class LockKeys
{
    /** @var resource */
    private $socket;

    private function __construct(string $dsn)
    {
        [$address, $user, $password, $db] = self::parse($dsn);
        $ssl = ['verify_peer' => true, 'verify_peer_name' => true];
        if (($ca = (string) ini_get('redis_lock.tls_ca_file')) !== '') {
            $ssl['cafile'] = $ca;
        }
        $connect = (float) ini_get('redis_lock.connect_timeout') ?: 5.0;
        $socket = @stream_socket_client($address, $errno, $error, $connect, STREAM_CLIENT_CONNECT, stream_context_create(['ssl' => $ssl]));
        if ($socket === false) {
            throw new \RedisLockException(sprintf('Redis at %s: %s', preg_replace('~^\w+://~', '', $address), $error ?: 'cannot connect'));
        }
        $read = (float) ini_get('redis_lock.read_timeout') ?: 5.0;
        stream_set_timeout($socket, (int) $read, (int) (fmod($read, 1.0) * 1e6));
        $this->socket = $socket;
        if ($password !== null) {
            $this->command(...($user === null ? ['AUTH', $password] : ['AUTH', $user, $password]));
        }
        if ($db !== 0) {
            $this->command('SELECT', (string) $db);
        }
    }

    /**
     * The keys of locks whose key starts with $prefix (not empty).
     *
     * @return list<string>
     */
    public static function under(string $dsn, string $prefix): array
    {
        $connection = new self($dsn);
        $pattern = addcslashes($prefix, '*?[]\\') . '*';
        $keys = [];
        $cursor = '0';
        do {
            [$cursor, $batch] = $connection->command('SCAN', $cursor, 'MATCH', $pattern, 'COUNT', '1000', 'TYPE', 'string');
            foreach ($batch as $key) {
                if (!self::isFencingCounter($key)) {
                    $keys[$key] = true;
                }
            }
        } while ($cursor !== '0');
        fclose($connection->socket);

        return array_map('strval', array_keys($keys));
    }

    private static function isFencingCounter(string $key): bool
    {
        if (substr($key, -2) !== ':f') {
            return false;
        }
        $base = substr($key, 0, -2);
        $open = strpos($base, '{');
        $close = $open === false ? false : strpos($base, '}', $open + 1);

        return $close !== false && $close > $open + 1;
    }

    /** @return array{string, ?string, ?string, int} address, user, password, database */
    private static function parse(string $dsn): array
    {
        if (!preg_match('~^(rediss?|unix)://(?:(.*)@)?([^?]*)(?:\?(.*))?$~s', $dsn, $m)) {
            throw new \LogicException('Listing lock keys needs a redis://, rediss:// or unix:// server: Cluster and Sentinel are not supported.');
        }
        [, $scheme, $userinfo, $where] = $m;
        parse_str($m[4] ?? '', $query);
        $user = $password = null;
        if ($userinfo !== '') {
            [$user, $password] = array_map('rawurldecode', explode(':', $userinfo, 2)) + [1 => ''];
            $user = $user === '' ? null : $user;
        }
        $user = isset($query['user']) ? (string) $query['user'] : $user;
        $password = isset($query['password']) ? (string) $query['password'] : $password;
        $db = (int) ($query['db'] ?? 0);
        if ($scheme === 'unix') {
            return ['unix://' . rawurldecode($where), $user, $password, $db];
        }
        [$hostport, $path] = explode('/', $where, 2) + [1 => ''];
        if ($path !== '') {
            $db = (int) $path;
        }
        if (!preg_match('~^(\[[^\]]+\]|[^:]+)(?::(\d+))?$~', $hostport, $h)) {
            throw new \LogicException('Listing lock keys: the server has no host');
        }
        $address = ($scheme === 'rediss' ? 'tls://' : 'tcp://') . $h[1] . ':' . ($h[2] ?? '6379');

        return [$address, $user, $password, $db];
    }

    /** @return mixed the reply; an error reply throws RedisLockException */
    private function command(string ...$args): mixed
    {
        $request = '*' . count($args) . "\r\n";
        foreach ($args as $arg) {
            $request .= '$' . strlen($arg) . "\r\n" . $arg . "\r\n";
        }
        if (fwrite($this->socket, $request) !== strlen($request)) {
            throw new \RedisLockException('Redis: write failed while listing lock keys');
        }

        return $this->reply();
    }

    private function reply(): mixed
    {
        $line = fgets($this->socket);
        if ($line === false) {
            throw new \RedisLockException('Redis: no reply while listing lock keys');
        }
        $payload = substr($line, 1, -2);
        switch ($line[0]) {
            case '+':
                return $payload;
            case '-':
                throw new \RedisLockException('Redis: ' . $payload);
            case ':':
                return (int) $payload;
            case '$':
                $data = (int) $payload < 0 ? null : stream_get_contents($this->socket, (int) $payload + 2);

                return $data === null ? null : substr($data, 0, -2);
            case '*':
                $items = [];
                for ($i = (int) $payload; $i > 0; $i--) {
                    $items[] = $this->reply();
                }

                return $items;
        }
        throw new \RedisLockException('Redis: protocol error while listing lock keys');
    }
}
