<?php

declare(strict_types=1);

namespace RedisLock\Laravel\Console;

use RedisLock\Internal\LockTable;

/**
 * php artisan redis-lock:list [pattern] [--json] [--watch] [--limit=N]:
 * the redis_lock store's locks held or waited for now, the most contended
 * first: what each is, who holds it (host:pid label), for how long, the TTL
 * left, the waiters and the longest wait. See docs/operating-laravel.md.
 */
class ListLocksCommand extends LockCommand
{
    protected $signature = 'redis-lock:list
        {pattern? : Only the locks whose name matches this glob (default: every lock; e.g. "laravel_unique_job:*")}
        {--store= : The redis_lock cache store (default: the default store, or the first redis_lock one)}
        {--json : Output the locks as JSON}
        {--watch : Refresh every second until interrupted}
        {--times=0 : With --watch, stop after this many refreshes (0: never)}
        {--limit=1000 : List at most this many locks}';

    protected $description = 'List the locks held or waited for in the redis_lock store';

    public function handle(): int
    {
        $limit = (int) $this->option('limit');
        if ($limit < 1) {
            $this->components->error('--limit must be at least 1.');

            return self::FAILURE;
        }
        $pattern = (string) ($this->argument('pattern') ?? '*');
        $times = max(0, (int) $this->option('times'));
        for ($round = 1; ; $round++) {
            $locks = LockTable::sort($this->locks($pattern, $limit));
            if ($this->option('watch') && $this->output->isDecorated()) {
                $this->output->write("\033[H\033[2J"); // home, clear: a live view
            }
            $this->option('json') ? $this->json($locks) : $this->render($locks, $pattern, $limit);
            if (!$this->option('watch') || ($times > 0 && $round >= $times)) {
                return self::SUCCESS;
            }
            sleep(1);
        }
    }

    /** @param list<array> $locks */
    private function json(array $locks): void
    {
        $this->output->writeln(json_encode($locks, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_INVALID_UTF8_SUBSTITUTE | ($this->option('watch') ? 0 : JSON_PRETTY_PRINT)));
    }

    /** @param list<array> $locks */
    private function render(array $locks, string $pattern, int $limit): void
    {
        if ($locks === []) {
            $this->components->info('No lock is held or waited for' . ($pattern === '*' ? '.' : ' under [' . $this->escape($pattern) . '].'));

            return;
        }
        $this->newLine();
        $this->components->twoColumnDetail('<fg=gray>Lock</>', '<fg=gray>Holder · held for · TTL left · waiters</>');
        $now = microtime(true);
        foreach ($locks as $lock) {
            $s = LockTable::summary($lock, $now);
            $what = $lock['what'] === '' ? '' : ' <fg=gray>' . $this->escape($lock['what']) . '</>';
            $kind = $s['kind'] === 'mutex' ? '' : " <fg=yellow>[{$s['kind']}]</>";
            $waiters = LockTable::waiting($lock) === 0 ? "<fg=gray>{$s['waiters']}</>" : "<fg=red;options=bold>{$s['waiters']}</>";
            $this->components->twoColumnDetail(
                $this->escape($lock['name']) . $kind . $what,
                $this->escape($s['holders']) . ' · held ' . $s['held'] . ' · TTL ' . $s['ttl'] . ' · ' . $waiters,
            );
        }
        $this->newLine();
        if (count($locks) >= $limit) {
            $this->components->warn("Showing the first $limit locks found (--limit).");
        }
    }
}
