<?php

declare(strict_types=1);

namespace RedisLock\Symfony\Command;

use RedisLock\Internal\LockTable;
use Symfony\Component\Console\Command\Command;
use Symfony\Component\Console\Helper\Table;
use Symfony\Component\Console\Input\InputArgument;
use Symfony\Component\Console\Input\InputInterface;
use Symfony\Component\Console\Input\InputOption;
use Symfony\Component\Console\Output\OutputInterface;

/**
 * redis-lock:show KEY [--json]: one lock, everything about it: kind, node,
 * TTL, fence, each holder (token, host, pid, since, label, its own TTL,
 * mode or permits) and each waiter in queue order (how long it has waited,
 * what is left of its place). Exit 1 when the key holds no lock.
 */
final class ShowLockCommand extends Command
{
    private LockRows $rows;

    public function __construct(?string $server = null, ?string $prefix = null)
    {
        $this->rows = new LockRows($server, $prefix);
        parent::__construct('redis-lock:show');
    }

    protected function configure(): void
    {
        $this
            ->setDescription('Shows one Redis lock: its holders and its queue of waiters')
            ->addArgument('key', InputArgument::REQUIRED, 'the lock name (without the prefix)')
            ->addOption('json', null, InputOption::VALUE_NONE, 'the lock as one JSON object');
    }

    protected function execute(InputInterface $input, OutputInterface $output): int
    {
        $key = (string) $input->getArgument('key');
        try {
            $lock = $this->rows->describe($key);
        } catch (\RedisLockException|\RuntimeException $e) {
            $output->writeln('<error>' . $e->getMessage() . '</error>');

            return self::FAILURE;
        }
        if ($lock === null) {
            $output->writeln($input->getOption('json') ? 'null' : sprintf('No lock at "%s".', $key), OutputInterface::OUTPUT_RAW);

            return self::FAILURE;
        }
        if ($input->getOption('json')) {
            $output->writeln(json_encode($lock, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_INVALID_UTF8_SUBSTITUTE | JSON_THROW_ON_ERROR), OutputInterface::OUTPUT_RAW);

            return self::SUCCESS;
        }
        $now = microtime(true);
        $output->writeln([
            sprintf('<info>%s</info> (%s, Redis key %s on %s)', $lock['key'], $lock['kind'], $lock['redis_key'], $lock['node']),
            sprintf('TTL: %s   fence: %s', LockTable::duration($lock['ttl_ms']), $lock['fence'] ?? '-'),
            '',
        ]);
        $holders = new Table($output);
        $holders->setHeaderTitle('Holders');
        $holders->setHeaders(['Token', 'Host:pid', 'Label', 'Held for', 'TTL', 'Mode / permits']);
        foreach ($lock['holders'] as $h) {
            $holders->addRow([
                $h['token'], ($h['host'] ?? '?') . ':' . ($h['pid'] ?? '?'), $h['label'] ?? '-',
                LockTable::age($h['since'], $now), LockTable::duration($h['ttl_ms']),
                $h['mode'] ?? ($h['weight'] !== null ? sprintf('%d of %s', $h['weight'], $h['limit'] ?? '?') : '-'),
            ]);
        }
        $holders->render();
        if ($lock['waiters'] === []) {
            $output->writeln('Nobody waits.');

            return self::SUCCESS;
        }
        $waiters = new Table($output);
        $queued = LockTable::waiting($lock);
        $waiters->setHeaderTitle(\count($lock['waiters']) < $queued
            ? sprintf('Waiters, first in line first (the first %d of %d)', \count($lock['waiters']), $queued)
            : 'Waiters, first in line first');
        $waiters->setHeaders(['#', 'Token', 'Host:pid', 'Label', 'Waited', 'Place kept for', 'Mode']);
        foreach ($lock['waiters'] as $i => $w) {
            $waiters->addRow([
                $i + 1, $w['token'], ($w['host'] ?? '?') . ':' . ($w['pid'] ?? '?'), $w['label'] ?? '-',
                LockTable::duration($w['waited_ms']), ($w['place_ms'] > 0 ? LockTable::duration($w['place_ms']) : 'run out (a dead waiter)'), $w['mode'] ?? '-',
            ]);
        }
        $waiters->render();

        return self::SUCCESS;
    }
}
