<?php

declare(strict_types=1);

namespace RedisLock\Symfony\Command;

use Symfony\Component\Console\Command\Command;
use Symfony\Component\Console\Input\InputArgument;
use Symfony\Component\Console\Input\InputInterface;
use Symfony\Component\Console\Input\InputOption;
use Symfony\Component\Console\Output\ConsoleOutputInterface;
use Symfony\Component\Console\Output\OutputInterface;

/**
 * redis-lock:list [pattern] [--json] [--watch[=SECONDS]] [--limit=N]: the
 * locks whose name matches a glob (SCAN MATCH, never KEYS; every master of a
 * Cluster), the most waited-for first: holders, how long held, TTL, fence,
 * waiters and the longest wait. --json: one JSON object per line, the fields
 * of RedisLock::locks(). --watch: the table again every SECONDS (default 2)
 * until interrupted.
 */
final class ListLocksCommand extends Command
{
    private LockRows $rows;

    /**
     * @param string|null $server a redis_lock.server DSN (null: the setting)
     * @param string|null $prefix the key prefix (null: redis_lock.prefix)
     */
    public function __construct(?string $server = null, ?string $prefix = null)
    {
        $this->rows = new LockRows($server, $prefix);
        parent::__construct('redis-lock:list');
    }

    protected function configure(): void
    {
        $this
            ->setDescription('Lists the Redis locks held or waited for: holders, age, TTL, fence, waiters')
            ->addArgument('pattern', InputArgument::OPTIONAL, 'a glob on lock names (without the prefix), as Redis SCAN MATCH reads it', '*')
            ->addOption('json', null, InputOption::VALUE_NONE, 'one JSON object per lock and line')
            ->addOption('watch', 'w', InputOption::VALUE_OPTIONAL, 'refresh every SECONDS until interrupted', false)
            ->addOption('limit', 'l', InputOption::VALUE_REQUIRED, 'list at most this many locks', '1000');
    }

    protected function execute(InputInterface $input, OutputInterface $output): int
    {
        $pattern = (string) $input->getArgument('pattern');
        $limit = filter_var($input->getOption('limit'), FILTER_VALIDATE_INT, ['options' => ['min_range' => 1]]);
        if ($limit === false) {
            $output->writeln('<error>--limit must be a positive integer</error>');

            return self::INVALID;
        }
        $watch = $input->getOption('watch');
        if ($watch === false) {
            return $this->show($input, $output, $pattern, $limit);
        }
        $every = $watch === null ? 2.0 : (float) $watch;
        if (!($every > 0)) {
            $output->writeln('<error>--watch takes a positive number of seconds</error>');

            return self::INVALID;
        }
        // A section redrawn in place on a terminal; elsewhere (a pipe, a
        // log) each refresh follows the last.
        $screen = $output instanceof ConsoleOutputInterface && $output->isDecorated() ? $output->section() : $output;
        while (true) {
            if ($screen !== $output) {
                $screen->clear();
            }
            $screen->writeln(sprintf('<comment>%s, every %s s (Ctrl-C ends)</comment>', gmdate('Y-m-d H:i:s \U\T\C'), $every));
            $status = $this->show($input, $screen, $pattern, $limit);
            if ($status !== self::SUCCESS) {
                return $status;
            }
            usleep((int) ($every * 1e6));
        }
    }

    private function show(InputInterface $input, OutputInterface $output, string $pattern, int $limit): int
    {
        try {
            $locks = $this->rows->locks($pattern, $limit);
        } catch (\RedisLockException|\RuntimeException $e) {
            $output->writeln('<error>' . $e->getMessage() . '</error>');

            return self::FAILURE;
        }
        if ($input->getOption('json')) {
            foreach ($locks as $lock) {
                $output->writeln(json_encode($lock, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_INVALID_UTF8_SUBSTITUTE | JSON_THROW_ON_ERROR), OutputInterface::OUTPUT_RAW);
            }
        } elseif ($locks === []) {
            $output->writeln(sprintf('No lock matches "%s".', $pattern));
        } else {
            LockRows::table($output, $locks, microtime(true))->render();
        }
        if (\count($locks) >= $limit) {
            $errors = $output instanceof ConsoleOutputInterface ? $output->getErrorOutput() : $output;
            $errors->writeln(sprintf('<comment>Showing the first %d locks: there may be more (--limit).</comment>', $limit));
        }

        return self::SUCCESS;
    }
}
