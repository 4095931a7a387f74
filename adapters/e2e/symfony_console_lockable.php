<?php

/*
 * symfony/console's LockableTrait with the application's lock.factory
 * (FrameworkBundle, adapters/config/symfony/redis_lock.php; the command gets
 * the factory by autowiring), run as `bin/console app:import` in two
 * processes: while one runs, the other says so and exits 1; afterwards it
 * runs again.
 *
 * A SIGKILLed run: LockableTrait takes its lock with LockFactory's default
 * TTL, 300 s, so the command stays out for those 300 s (checked: the key's
 * TTL, and a refused run), as with symfony's own RedisStore. (symfony's
 * default SemaphoreStore/FlockStore locks die with the process, but only
 * exclude runs on the same host.)
 */

declare(strict_types=1);

require __DIR__ . '/lib.php';

use Symfony\Component\Console\Attribute\AsCommand;
use Symfony\Component\Console\Command\Command;
use Symfony\Component\Console\Command\LockableTrait;
use Symfony\Component\Console\Input\InputInterface;
use Symfony\Component\Console\Input\InputOption;
use Symfony\Component\Console\Output\OutputInterface;
use Symfony\Component\DependencyInjection\Loader\Configurator\ContainerConfigurator;
use Symfony\Component\Lock\LockFactory;

need(load('Symfony/Bundle/FrameworkBundle', 'Symfony/Component/Console', 'Symfony/Component/Lock'), 'needs php-symfony-framework-bundle, php-symfony-console, php-symfony-lock');
need_symfony_kernel();
need(property_exists(new class () { use LockableTrait; }, 'lockFactory'), 'needs symfony/console 7.1+ (a lock factory of the command\'s own in LockableTrait)');

#[AsCommand('app:import')]
final class ImportCommand extends Command
{
    use LockableTrait;

    public function __construct(LockFactory $lockFactory)
    {
        $this->lockFactory = $lockFactory;
        parent::__construct();
    }

    protected function configure(): void
    {
        $this->addOption('hold', null, InputOption::VALUE_NONE);
    }

    protected function execute(InputInterface $input, OutputInterface $output): int
    {
        if (!$this->lock()) {
            $output->writeln('The command is already running in another process.');

            return Command::FAILURE;
        }
        out('ran');
        if ($input->getOption('hold')) {
            in(); // until the test says so, or is killed
        }
        $this->release();

        return Command::SUCCESS;
    }
}

roles([
    // bin/console app:import [--hold]: "ran" when it ran, then "end <exit code>".
    'console' => function (string $hold): void {
        $kernel = symfony_kernel(function (ContainerConfigurator $container): void {
            $container->services()->set('app.import_command', ImportCommand::class)->autowire()->autoconfigure();
        });
        out('end ' . symfony_console($kernel, 'app:import', ...($hold === '1' ? ['--hold'] : [])));
    },
]);

$redis = e2e_redis();
$run = fn () => spawn('console', '0')->finish()[0];

$holder = spawn('console', '1');
$holder->expect('ran');
$ttl = $redis->pttl('lock:app:import');
check($ttl > 290_000 && $ttl <= 300_000, "the command's lock is our key lock:app:import, TTL 300 s (LockFactory's default): $ttl ms");
check($run() === ['end 1'], 'a second run does not run and exits 1');
$holder->send('done');
check($holder->finish()[0] === ['end 0'], 'the first run completes');
check($redis->keys() === [], 'it released the lock: no key left');
check($run() === ['ran', 'end 0'], 'the next run runs');

$holder = spawn('console', '1');
$holder->expect('ran');
$holder->kill();
$holder->wait();
$ttl = $redis->pttl('lock:app:import');
check($ttl > 290_000 && $ttl <= 300_000, "after SIGKILL of the running one, its lock stays for the rest of its 300 s: PTTL $ttl ms");
check($run() === ['end 1'], 'and a new run is refused meanwhile');

passed();
