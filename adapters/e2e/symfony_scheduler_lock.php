<?php

/*
 * symfony/scheduler's schedule lock (Schedule::lock()) from the application's
 * lock.factory (FrameworkBundle, adapters/config/symfony/redis_lock.php): a
 * #[AsSchedule] provider with a RecurringMessage every second, consumed by two
 * `bin/console messenger:consume scheduler_default` workers. Only the worker
 * that holds the schedule's lock (TTL 2 s, refreshed by the scheduler at each
 * run) produces the messages; the other produces none. When that worker is
 * killed with SIGKILL, the other takes over once the lock runs out.
 */

declare(strict_types=1);

require __DIR__ . '/lib.php';

use Symfony\Component\DependencyInjection\Loader\Configurator\ContainerConfigurator;
use Symfony\Component\Lock\LockFactory;
use Symfony\Component\Messenger\Attribute\AsMessageHandler;
use Symfony\Component\Scheduler\Attribute\AsSchedule;
use Symfony\Component\Scheduler\RecurringMessage;
use Symfony\Component\Scheduler\Schedule;
use Symfony\Component\Scheduler\ScheduleProviderInterface;

need(load('Symfony/Bundle/FrameworkBundle', 'Symfony/Component/Scheduler', 'Symfony/Component/Messenger', 'Symfony/Component/Lock'), 'needs php-symfony-framework-bundle, php-symfony-scheduler, php-symfony-messenger, php-symfony-lock');
need_symfony_kernel();
need(method_exists(Schedule::class, 'lock'), 'needs symfony/scheduler 6.4+ (Schedule::lock())');

final class Tick
{
}

#[AsSchedule]
final class TickSchedule implements ScheduleProviderInterface
{
    public function __construct(private LockFactory $lockFactory)
    {
    }

    public function getSchedule(): Schedule
    {
        return (new Schedule())
            ->add(RecurringMessage::every('1 second', new Tick()))
            ->lock($this->lockFactory->createLock('tick-schedule', 2.0));
    }
}

#[AsMessageHandler]
final class TickHandler
{
    public function __invoke(Tick $tick): void
    {
        out('tick');
    }
}

roles([
    'worker' => function (): void {
        $kernel = symfony_kernel(function (ContainerConfigurator $container): void {
            $container->extension('framework', ['messenger' => ['enabled' => true], 'scheduler' => ['enabled' => true]]);
            $services = $container->services();
            $services->set('app.tick_schedule', TickSchedule::class)->autowire()->autoconfigure();
            $services->set('app.tick_handler', TickHandler::class)->autoconfigure();
        });
        out('started');
        symfony_console($kernel, 'messenger:consume', 'scheduler_default', '--sleep=0.05', '--time-limit=20');
    },
]);

/** @param list<Proc> $workers  Ticks each worker wrote within $seconds: [count, last time] by index. */
function ticks(array $workers, float $seconds): array
{
    $ticks = array_fill(0, count($workers), [0, 0.0]);
    $deadline = microtime(true) + $seconds;
    while (($left = $deadline - microtime(true)) > 0) {
        foreach ($workers as $i => $worker) {
            if (($line = $worker->poll(min(0.02, $left))) !== null) {
                if ($line[0] !== 'tick') {
                    throw new E2EFailure("worker $i wrote " . json_encode($line[0]));
                }
                $ticks[$i] = [$ticks[$i][0] + 1, $line[1]];
            }
        }
    }

    return $ticks;
}

$redis = e2e_redis();

$workers = [spawn('worker'), spawn('worker')];
$workers[0]->expect('started');
$workers[1]->expect('started');
$ticks = ticks($workers, 3.5);
$active = $ticks[0][0] > 0 ? 0 : 1;
$idle = 1 - $active;
check($ticks[$active][0] >= 2 && $ticks[$idle][0] === 0, sprintf('in 3.5 s one worker produced %d ticks, the other %d', $ticks[$active][0], $ticks[$idle][0]));
$ttl = $redis->pttl('lock:tick-schedule');
check($ttl > 0 && $ttl <= 3000, "the schedule's lock is our key lock:tick-schedule, refreshed to the next run plus its TTL: $ttl ms");

$owner = $redis->get('lock:tick-schedule');
$killed = microtime(true);
$workers[$active]->kill();
$workers[$active]->wait();
// At each run the lock is refreshed to the next run (1 s) plus what is left
// of it (about 3 s); the other worker takes it at its first look after that.
$taken = changed($redis, 'lock:tick-schedule', $owner);
check($taken - $killed > 0.5 && $taken - $killed < 3.4, sprintf('after SIGKILL of that worker, its lock on the schedule is gone %.2f s later', $taken - $killed));
$first = $workers[$idle]->expect('tick', 6);
check($first - $taken < 2.0, sprintf('and the other worker ticks %.2f s after that', $first - $taken));
$ticks = ticks([$workers[$idle]], 1.5);
check($ticks[0][0] >= 1, sprintf('and goes on ticking (%d more in 1.5 s)', $ticks[0][0]));

passed();
