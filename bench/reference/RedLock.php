<?php
/**
 * The pure-PHP Redlock that PHP applications copy today (the ronnylt/redlock-php
 * style class, also pasted into many code bases), written out here as the
 * reference the RedLock benchmark times the extension against.
 *
 * It is reproduced faithfully ON PURPOSE, flaws included, so that the timing
 * is what users really get:
 *  - the quorum is a float: min(count, count / 2 + 1) = 3.5 for 5 servers, so
 *    4 of 5 nodes must agree (and 3 of 3);
 *  - the token is uniqid(): time-based, guessable, can collide across processes;
 *  - the nodes are asked one after another, so a lock costs the SUM of N round
 *    trips and an unlock N more (the extension fans out: one round trip each);
 *  - a node that is down makes connect()/set() throw instead of counting as a
 *    failed vote; the connections are opened lazily, with connect() (no pconnect);
 *  - after the last failed attempt it still sleeps before returning false;
 *  - unlock() returns nothing.
 * Do not "fix" it: it is a reference implementation for a fair comparison, not
 * a lock to use. No strict_types, as in the original (mt_rand() gets floor()'s float).
 */

namespace Bench\Reference;

class RedLock
{
    private $retryDelay;
    private $retryCount;
    private $clockDriftFactor = 0.01;

    private $quorum;

    private $servers = array();
    private $instances = array();

    /**
     * @param array $servers list of [host, port, timeout]
     */
    public function __construct(array $servers, $retryDelay = 200, $retryCount = 3)
    {
        $this->servers = $servers;

        $this->retryDelay = $retryDelay;
        $this->retryCount = $retryCount;

        // The float quorum (3.5 for 5 servers).
        $this->quorum = min(count($servers), (count($servers) / 2 + 1));
    }

    public function lock($resource, $ttl)
    {
        $this->initInstances();

        $token = uniqid();
        $retry = $this->retryCount;

        do {
            $n = 0;

            $startTime = microtime(true) * 1000;

            // One node after the other.
            foreach ($this->instances as $instance) {
                if ($this->lockInstance($instance, $resource, $token, $ttl)) {
                    $n++;
                }
            }

            // Redis expires have 1 ms precision, plus 1 ms minimum drift for small TTLs.
            $drift = ($ttl * $this->clockDriftFactor) + 2;

            $validityTime = $ttl - (microtime(true) * 1000 - $startTime) - $drift;

            if ($n >= $this->quorum && $validityTime > 0) {
                return [
                    'validity' => $validityTime,
                    'resource' => $resource,
                    'token'    => $token,
                ];
            } else {
                foreach ($this->instances as $instance) {
                    $this->unlockInstance($instance, $resource, $token);
                }
            }

            // A random delay before the next attempt (also after the last one).
            $delay = mt_rand(floor($this->retryDelay / 2), $this->retryDelay);
            usleep($delay * 1000);

            $retry--;
        } while ($retry > 0);

        return false;
    }

    public function unlock(array $lock)
    {
        $this->initInstances();
        $resource = $lock['resource'];
        $token    = $lock['token'];

        foreach ($this->instances as $instance) {
            $this->unlockInstance($instance, $resource, $token);
        }
    }

    private function initInstances()
    {
        if (empty($this->instances)) {
            foreach ($this->servers as $server) {
                list($host, $port, $timeout) = $server;
                $redis = new \Redis();
                $redis->connect($host, $port, $timeout);

                $this->instances[] = $redis;
            }
        }
    }

    private function lockInstance($instance, $resource, $token, $ttl)
    {
        return $instance->set($resource, $token, ['NX', 'PX' => $ttl]);
    }

    private function unlockInstance($instance, $resource, $token)
    {
        $script = '
            if redis.call("GET", KEYS[1]) == ARGV[1] then
                return redis.call("DEL", KEYS[1])
            else
                return 0
            end
        ';

        return $instance->eval($script, [$resource, $token], 1);
    }
}
