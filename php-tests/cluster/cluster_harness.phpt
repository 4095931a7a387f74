--TEST--
Harness: RlCluster starts 6 real nodes (3 masters, 3 replicas) whose masters own all 16384 slots; keyOn() gives a key its master takes; a slot migration (step by step: ASK in between; or migrateSlot()) moves the slot and its keys; failover() swaps a master and its replica
--FILE--
<?php
require __DIR__ . '/../inc/cluster.inc';
$c = RlCluster::start();

// Names instead of ports: M1..M3 the first masters, R1..R3 their replicas.
$masters = $c->masters();
$names = [];
foreach ($masters as $i => $m) {
    $names[$m->port] = 'M' . ($i + 1);
    $names[$c->replicaOf($m)->port] = 'R' . ($i + 1);
}
$name = fn (RedisServer $n) => $names[$n->port];
$list = function (array $nodes) use ($name): string { // sorted: which replica gets which master varies
    $l = array_map($name, $nodes);
    sort($l);
    return implode(' ', $l);
};
$mask = fn (mixed $r) => preg_replace_callback('/127\.0\.0\.1:(\d+)/', fn ($m) => $names[(int) $m[1]] ?? 'unknown', (string) $r);
// Who owns which slots, as every node's CLUSTER SLOTS says (one line if they all agree). Replicas
// are left out: a node lists a replica there only once its replication offset is not 0 (after writes).
$owners = function () use ($c, $names): string {
    $seen = [];
    foreach ($c->nodes() as $n) {
        $ranges = [];
        foreach ($n->cmd('CLUSTER', 'SLOTS') as $r) {
            $ranges[] = sprintf('%d-%d %s', $r[0], $r[1], $names[$r[2][1]]);
        }
        sort($ranges, SORT_NATURAL);
        $seen[implode(', ', $ranges)] = true;
    }
    return implode(' | ', array_keys($seen));
};

echo "nodes: ", count($c->nodes()), ", running: ", count(array_filter($c->nodes(), fn ($n) => $n->running())),
    ", masters: ", count($masters), ", replicas: ", count($c->replicas()), ", named: ", count($names), "\n";
$infos = array_map(function (RedisServer $n): string {
    preg_match_all('/^(cluster_state|cluster_slots_assigned|cluster_known_nodes|cluster_size):(\S+)/m', $n->cmd('CLUSTER', 'INFO'), $m);
    return implode(' ', $m[2]);
}, $c->nodes());
echo "CLUSTER INFO state/slots/nodes/size: ", implode(' | ', array_unique($infos)), "\n";
echo "slots: ", $owners(), "\n";
echo "replicas: ", $list($c->replicas()), ", links up: ", count(array_filter($c->replicas(), fn ($r) => preg_match('/^master_link_status:up/m', $r->cmd('INFO', 'replication')))), "\n";
echo "dsn: ", $mask($c->dsn()), ", seeds and query: ", $mask($c->dsn([$masters[2]], 'timeout=1')), "\n";

// keyOn(): the owner takes the key, another master redirects.
foreach ($masters as $i => $m) {
    $key = $c->keyOn($m);
    $other = $masters[($i + 1) % 3];
    echo $name($m), ": ", $key, " slot ", $m->cmd('CLUSTER', 'KEYSLOT', $key), ", SET: ", $m->cmd('SET', $key, "on " . $name($m)),
        ", on ", $name($other), ": ", $mask($other->cmd('GET', $key)), ", masterOfKey: ", $name($c->masterOfKey($key)), "\n";
}

// Step by step: in between, the source sends the moved keys' clients to the target with ASK.
$key = $c->keyOn($masters[0]);
$slot = $c->slot($key);
$masters[0]->cmd('SET', "{{$key}}x", 'x');
$c->beginMigration($slot, $masters[1]);
$c->migrateKeys($slot);
echo "migrating slot $slot: keys left on M1: ", $masters[0]->cmd('CLUSTER', 'COUNTKEYSINSLOT', $slot),
    ", on M2: ", $masters[1]->cmd('CLUSTER', 'COUNTKEYSINSLOT', $slot), ", GET on M1: ", $mask($masters[0]->cmd('GET', $key)), "\n";
$c->finishMigration($slot);
echo "migrated: owner ", $name($c->masterOfSlot($slot)), ", GET on M2: ", $masters[1]->cmd('GET', $key), ", on M1: ", $mask($masters[0]->cmd('GET', $key)), "\n";

// migrateSlot(): all at once.
$key = $c->keyOn($masters[2]);
$slot = $c->slot($key);
$c->migrateSlot($slot, $masters[0]);
echo "migrateSlot($slot, M1): GET on M1: ", $masters[0]->cmd('GET', $key), ", on M3: ", $mask($masters[2]->cmd('GET', $key)), "\n";
echo "slots: ", $owners(), "\n";

// failover(): R3 takes over M3's slots (and data); M3 follows it.
$key = $c->keyOn($masters[2], 'f');
$masters[2]->cmd('SET', $key, 'written on M3');
$r3 = $c->replicaOf($masters[2]);
$c->failover($r3);
echo "after failover: R3 ", $r3->cmd('ROLE')[0], ", masterOfKey($key): ", $name($c->masterOfKey($key)), ", GET on R3: ", $r3->cmd('GET', $key),
    ", M3: ", rl_eventually(fn () => $masters[2]->cmd('ROLE')[0] . ' of ' . ($names[$masters[2]->cmd('ROLE')[2]] ?? '?'), 'slave of R3', 10), "\n";
echo "masters: ", $list($c->masters()), ", replicas: ", $list($c->replicas()), ", replicaOf(R3): ", $name($c->replicaOf($r3)), "\n";
echo "slots: ", $owners(), "\n";
?>
--EXPECT--
nodes: 6, running: 6, masters: 3, replicas: 3, named: 6
CLUSTER INFO state/slots/nodes/size: ok 16384 6 3
slots: 0-5460 M1, 5461-10922 M2, 10923-16383 M3
replicas: R1 R2 R3, links up: 3
dsn: redis-cluster://M1,M2,M3, seeds and query: redis-cluster://M3?timeout=1
M1: k-2 slot 3377, SET: OK, on M2: MOVED 3377 M1, masterOfKey: M1
M2: k-3 slot 7440, SET: OK, on M3: MOVED 7440 M2, masterOfKey: M2
M3: k-0 slot 11635, SET: OK, on M1: MOVED 11635 M3, masterOfKey: M3
migrating slot 3377: keys left on M1: 0, on M2: 2, GET on M1: ASK 3377 M2
migrated: owner M2, GET on M2: on M1, on M1: MOVED 3377 M2
migrateSlot(11635, M1): GET on M1: on M3, on M3: MOVED 11635 M1
slots: 0-3376 M1, 3377-3377 M2, 3378-5460 M1, 5461-10922 M2, 10923-11634 M3, 11635-11635 M1, 11636-16383 M3
after failover: R3 master, masterOfKey(f-0): R3, GET on R3: written on M3, M3: slave of R3
masters: M1 M2 R3, replicas: M3 R1 R2, replicaOf(R3): M3
slots: 0-3376 M1, 3377-3377 M2, 3378-5460 M1, 5461-10922 M2, 10923-11634 R3, 11635-11635 M1, 11636-16383 R3
