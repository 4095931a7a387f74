<?php

declare(strict_types=1);

namespace RedisLock\Symfony\Command;

use RedisLock\Internal\ListedRelease;
use RedisLock\Internal\LockTable;
use Symfony\Component\Console\Command\Command;
use Symfony\Component\Console\Input\InputArgument;
use Symfony\Component\Console\Input\InputInterface;
use Symfony\Component\Console\Input\InputOption;
use Symfony\Component\Console\Output\OutputInterface;
use Symfony\Component\Console\Question\ConfirmationQuestion;

/**
 * redis-lock:release KEY [--owner=TOKEN] [--force]: releases a stuck lock
 * from outside, handing it to its first waiter.
 *
 * - --owner=TOKEN: only if TOKEN still holds it (owner-checked; TOKEN from
 *   redis-lock:show): a holder that came back meanwhile keeps its new hold.
 * - without --owner: whoever holds it (a mutex is deleted; each holder of a
 *   read/write lock or a semaphore is released).
 *
 * Asks first on a terminal, unless --force. Without a terminal
 * (--no-interaction, cron, a pipe) it asks nothing: an owner-checked release
 * goes ahead, a release of whoever holds it needs --force.
 */
final class ReleaseLockCommand extends Command
{
    private LockRows $rows;

    public function __construct(?string $server = null, ?string $prefix = null)
    {
        $this->rows = new LockRows($server, $prefix);
        parent::__construct('redis-lock:release');
    }

    protected function configure(): void
    {
        $this
            ->setDescription('Releases a Redis lock from outside (owner-checked with --owner), handing it to the next waiter')
            ->addArgument('key', InputArgument::REQUIRED, 'the lock name (without the prefix)')
            ->addOption('owner', null, InputOption::VALUE_REQUIRED, 'release only the hold of this token (see redis-lock:show)')
            ->addOption('force', 'f', InputOption::VALUE_NONE, 'do not ask');
    }

    protected function execute(InputInterface $input, OutputInterface $output): int
    {
        $key = (string) $input->getArgument('key');
        $owner = $input->getOption('owner');
        try {
            $lock = $this->rows->describe($key);
            if ($lock === null) {
                $output->writeln(sprintf('No lock at "%s": nothing to release.', $key));

                return self::FAILURE;
            }
            $holders = $owner === null ? $lock['holders'] : array_values(array_filter($lock['holders'], static fn (array $h): bool => $h['token'] === $owner));
            if ($owner !== null && $holders === []) {
                $output->writeln(sprintf('<error>That owner does not hold "%s" (any more).</error>', $key));

                return self::FAILURE;
            }
            $who = implode(', ', array_map([LockRows::class, 'holder'], $holders)) ?: 'nobody';
            $question = sprintf('Release %s lock "%s" held by %s (%d waiting)? [y/N] ', $lock['kind'], $key, $who, LockTable::waiting($lock));
            if (!$input->getOption('force')) {
                if (!$input->isInteractive() && $owner === null) {
                    $output->writeln('<error>Not released: without a terminal, releasing whoever holds it needs --force (or --owner).</error>');

                    return self::FAILURE;
                }
                if ($input->isInteractive() && !$this->getHelper('question')->ask($input, $output, new ConfirmationQuestion($question, false))) {
                    $output->writeln('Not released.');

                    return self::FAILURE;
                }
            }
            $released = ListedRelease::release($lock, $owner === null ? null : $holders, fn (\Closure $call): bool => (bool) $this->rows->call($call));
        } catch (\RedisLockException|\RuntimeException $e) {
            $output->writeln('<error>' . $e->getMessage() . '</error>');

            return self::FAILURE;
        }
        if ($released === 0) {
            $output->writeln(sprintf('<error>Not released: "%s" changed hands meanwhile (see redis-lock:show).</error>', $key));

            return self::FAILURE;
        }
        $output->writeln(sprintf('Released "%s" (%d %s).', $key, $released, $released === 1 ? 'hold' : 'holds'));

        return self::SUCCESS;
    }
}
