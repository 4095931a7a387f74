<?php

declare(strict_types=1);

namespace RedisLock\Laravel\Console;

use RedisLock\Internal\LockTable;

/**
 * php artisan redis-lock:show {name} [--json]: one lock in full: its Redis
 * key, kind, node, TTL, fencing token, every holder (token, host, pid, held
 * since, label, its own TTL, mode or weight) and every waiter in queue order
 * (how long it has waited, how long its place lasts without its renewal).
 * Exit code 1 when nobody holds the lock nor waits for it.
 */
class ShowLockCommand extends LockCommand
{
    protected $signature = 'redis-lock:show
        {name : The lock\'s name, as redis-lock:list shows it}
        {--store= : The redis_lock cache store (default: the default store, or the first redis_lock one)}
        {--json : Output the lock as JSON}';

    protected $description = 'Show who holds a lock of the redis_lock store and who waits for it';

    public function handle(): int
    {
        $name = (string) $this->argument('name');
        $lock = $this->lock($name);
        if ($lock === null) {
            if ($this->option('json')) {
                $this->output->writeln('null');
            } else {
                $this->components->warn("Nobody holds the lock [{$this->escape($name)}] nor waits for it.");
            }

            return self::FAILURE;
        }
        if ($this->option('json')) {
            $this->output->writeln(json_encode($lock, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_INVALID_UTF8_SUBSTITUTE));

            return self::SUCCESS;
        }
        $now = microtime(true);
        $this->newLine();
        foreach ([
            'Lock' => $lock['name'],
            'What' => $lock['what'] === '' ? '-' : $lock['what'],
            'Redis key' => $lock['redis_key'],
            'Kind' => $lock['kind'],
            'Node' => $lock['node'],
            'TTL' => LockTable::duration($lock['ttl_ms']),
            'Fencing token' => $lock['fence'] === null ? '-' : (string) $lock['fence'],
        ] as $field => $value) {
            $this->components->twoColumnDetail($field, $this->escape((string) $value));
        }
        $this->newLine();
        $this->line('<options=bold>Holders</>');
        $this->table(['Token', 'Host', 'PID', 'Held for', 'Label', 'TTL', 'Mode / weight'], array_map(static fn (array $h): array => [
            $h['token'], $h['host'] ?? '-', $h['pid'] ?? '-', LockTable::age($h['since'] ?? null, $now), $h['label'] ?? '-',
            LockTable::duration($h['ttl_ms'] ?? null),
            $h['mode'] ?? ($h['weight'] === null ? '-' : $h['weight'] . ' of ' . ($h['limit'] ?? '?')),
        ], $lock['holders']));
        if ($lock['waiters'] === []) {
            $this->components->info('Nobody waits for it.');

            return self::SUCCESS;
        }
        $this->line('<options=bold>Waiters</> (first in line first)');
        $this->table(['#', 'Token', 'Host', 'PID', 'Label', 'Waited', 'Place left', 'Mode'], array_map(static fn (array $w, int $i): array => [
            $i + 1, $w['token'], $w['host'] ?? '-', $w['pid'] ?? '-', $w['label'] ?? '-',
            LockTable::duration($w['waited_ms'] ?? null), LockTable::duration($w['place_ms']), $w['mode'] ?? '-',
        ], $lock['waiters'], array_keys($lock['waiters'])));

        return self::SUCCESS;
    }
}
