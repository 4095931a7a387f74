--TEST--
Audit, scale: a hash tag that puts 6,000 locks in one Redis Cluster slot (3,000 RedisMutexLock locks, 1,500 RedisReadWriteLock read holds, 1,500 RedisSemaphore permits, all "{tenant}:…") held at once with renewals on (3 s TTLs), while the slot is migrated to another master (MIGRATE of every key, 100 at a time) and back: every lock stays held, renewed and refused to others throughout, all 6,000 releases are true after both migrations, and the slot is empty afterwards on every master
--SKIPIF--
<?php if (!function_exists('proc_open')) die('skip proc_open needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/cluster.inc';
require __DIR__ . '/../inc/actor.inc';
$c = RlCluster::start(3, 0);
ini_set('redis_lock.server', $c->dsn());
ini_set('redis_lock.auto_renew', '1');
$kinds = ['mutex' => 3000, 'read' => 1500, 'permit' => 1500];
$taken = 0;
foreach ($kinds as $kind => $n) {
    for ($i = 0; $i < $n; $i++) {
        $key = "{tenant}:$kind:$i";
        $taken += (int) match ($kind) {
            'mutex' => RedisMutexLock::lock($key, 0, 3),
            'read' => RedisReadWriteLock::lockRead($key, 0, 3),
            'permit' => RedisSemaphore::acquire($key, 1, 0, 3),
        };
    }
}
$slot = $c->slot('lock:{tenant}:x');
$home = $c->masterOfSlot($slot);
$count = fn () => array_map('count', $c->pttlsInSlot($slot));
echo "taken: $taken, keys in the slot: ", array_sum($count()), "\n";

$other = new RlActor($home, ['redis_lock.server' => $c->dsn()]);
$refused = function () use ($other): string {
    $r = [];
    foreach ([['RedisMutexLock::lock', '{tenant}:mutex:7', 0, 5], ['RedisReadWriteLock::lockWrite', '{tenant}:read:7', 0, 5], ['RedisSemaphore::acquire', '{tenant}:permit:7', 1, 0, 5]] as $call) {
        $r[] = json_encode($other->result(...$call));
    }
    return implode(' ', $r);
};
$to = array_values(array_filter($c->masters(), fn ($m) => $m !== $home))[0];
foreach ([$to, $home] as $step => $target) {
    $c->beginMigration($slot, $target);
    echo "during migration $step, another process gets: ", $refused(), "\n";
    $c->migrateKeys($slot);
    $c->finishMigration($slot);
    $where = $count();
    echo "after migration $step: all ", array_sum($where), " keys on the new owner: ", json_encode($where[$target->port] === array_sum($where)), "\n";
    rl_sleep(1.5); // half a TTL: renewals go to the new owner
}
$ttls = array_merge(...array_values(array_map('array_values', $c->pttlsInSlot($slot))));
echo 'every TTL renewed and running: ', json_encode(min($ttls) > 0), "\n";
echo 'another process gets: ', $refused(), "\n";
$released = $lost = 0;
foreach ($kinds as $kind => $n) {
    for ($i = 0; $i < $n; $i++) {
        $key = "{tenant}:$kind:$i";
        try {
            $released += (int) match ($kind) {
                'mutex' => RedisMutexLock::release($key),
                'read' => RedisReadWriteLock::release($key),
                'permit' => RedisSemaphore::release($key),
            };
        } catch (RedisLockException $e) {
            $lost++;
        }
    }
}
echo "released: $released, failed: $lost, keys in the slot: ", array_sum($count()), "\n";
?>
--EXPECT--
taken: 6000, keys in the slot: 6000
during migration 0, another process gets: false false false
after migration 0: all 6000 keys on the new owner: true
during migration 1, another process gets: false false false
after migration 1: all 6000 keys on the new owner: true
every TTL renewed and running: true
another process gets: false false false
released: 6000, failed: 0, keys in the slot: 0
