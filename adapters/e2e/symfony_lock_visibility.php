<?php

/*
 * What adapters/config/symfony/redis_lock.php wires for seeing locks, in a
 * MicroKernel with FrameworkBundle: bin/console's redis-lock:list and
 * redis-lock:release (FrameworkBundle's console application) against a lock
 * another process holds under a label while a third waits, and the `lock`
 * channel: the application's logger (a Monolog logger writing to a file)
 * gets symfony's records from lock.factory and the store's wait record.
 */

declare(strict_types=1);

require __DIR__ . '/lib.php';

use Symfony\Component\Console\Input\ArrayInput;
use Symfony\Component\Console\Output\BufferedOutput;
use Symfony\Component\DependencyInjection\Loader\Configurator\ContainerConfigurator;

use function Symfony\Component\DependencyInjection\Loader\Configurator\service;

need(load('Symfony/Bundle/FrameworkBundle', 'Symfony/Component/Lock', 'Symfony/Component/Console'), 'needs symfony/framework-bundle and symfony/console (apt-get install php-symfony-framework-bundle php-symfony-console)');
need(load('Monolog'), 'needs Monolog (apt-get install php-monolog)');
need(method_exists(RedisLock::class, 'locks') && method_exists(RedisLock::class, 'setLabel'), 'this build of the extension cannot list locks');
need_symfony_kernel();

const VIS_LOCK = 'invoice:7';

$log = e2e_tmp('visibility.log');
$kernel = fn () => symfony_kernel(function (ContainerConfigurator $container) use ($log): void {
    // The application's logger: Monolog, into a file.
    $services = $container->services();
    $services->set('app.log_handler', Monolog\Handler\StreamHandler::class)->args([$log]);
    $services->set('logger', Monolog\Logger::class)->args(['app', [service('app.log_handler')]])->public();
});

roles([
    'holder' => function (): void {
        RedisLock::setLabel('job-77');
        $owner = RedisMutexLock::newOwner();
        RedisMutexLock::acquire(VIS_LOCK, $owner, 60000);
        out('held');
        in(); // until the test ends it
    },
    'waiter' => function (): void {
        $owner = RedisMutexLock::newOwner();
        out('waiting');
        RedisMutexLock::acquire(VIS_LOCK, $owner, 60000, 20);
        out('got');
        usleep(300000);
        RedisMutexLock::releaseOwner(VIS_LOCK, $owner);
        out('released');
    },
]);

$redis = e2e_redis();
$app = $kernel();

/** bin/console ARGS: [exit code, output]. */
function console(Symfony\Component\HttpKernel\KernelInterface $kernel, array $args): array
{
    $application = new Symfony\Bundle\FrameworkBundle\Console\Application($kernel);
    $application->setAutoExit(false);
    $output = new BufferedOutput();
    $status = $application->run(new ArrayInput($args), $output);

    return [$status, $output->fetch()];
}

$holder = spawn('holder');
$holder->expect('held');
$waiter = spawn('waiter');
$waiter->expect('waiting');
$deadline = microtime(true) + 10;
while (RedisMutexLock::inspect(VIS_LOCK)['waiters'] < 1 && microtime(true) < $deadline) {
    usleep(5000);
}

[$status, $text] = console($app, ['command' => 'redis-lock:list', '--json' => true, '--no-interaction' => true]);
$lines = array_values(array_filter(explode("\n", $text)));
$lock = json_decode($lines[0] ?? 'null', true);
check($status === 0 && count($lines) === 1 && $lock['key'] === VIS_LOCK, 'bin/console redis-lock:list --json: one lock, ' . VIS_LOCK);
check($lock['holders'][0]['pid'] === $holder->pid && $lock['holders'][0]['label'] === 'job-77', "its holder: the holder's pid, label job-77");
check(count($lock['waiters']) === 1 && $lock['waiters'][0]['pid'] === $waiter->pid, "its waiter: the waiter's pid");
[$status, $text] = console($app, ['command' => 'redis-lock:list', '--no-interaction' => true]);
check($status === 0 && str_contains($text, VIS_LOCK) && str_contains($text, ':' . $holder->pid . ' job-77'), 'the table names the lock and its holder\'s label');

[$status, $text] = console($app, ['command' => 'redis-lock:release', 'key' => VIS_LOCK, '--no-interaction' => true]);
check($status === 1 && str_contains($text, 'needs --force'), 'without a terminal, release needs --force');
[$status, $text] = console($app, ['command' => 'redis-lock:release', 'key' => VIS_LOCK, '--force' => true]);
check($status === 0 && str_contains($text, 'Released "' . VIS_LOCK . '"'), 'redis-lock:release --force releases it');
$waiter->expect('got');
check(true, 'and hands it to the waiter');

// The lock channel: lock.factory's Lock and the store log into the application's logger.
$lock = $app->getContainer()->get('lock.factory')->createLock(VIS_LOCK, 30);
check($lock->acquire(true), 'lock.factory gets it after the waiter');
$lock->release();
$waiter->expect('released');
$waiter->finish();
$holder->send('end');
$holder->finish();
$records = (string) file_get_contents($log);
// (Monolog writes the context's Key as {"Symfony\\Component\\Lock\\Key":"invoice:7"}.)
check(preg_match('/app\.DEBUG: Successfully acquired the "\{resource\}" lock\. \{"resource":\{"[^"]+":"invoice:7"\}\}/', $records) === 1, "symfony's record: Successfully acquired");
check(preg_match('/app\.INFO: Acquired the "\{resource\}" lock after waiting \{waited_ms\} ms\. \{"resource":\{"[^"]+":"invoice:7"\},"waited_ms":(\d+)\}/', $records, $m) === 1 && (int) $m[1] >= 150, sprintf("the store's record: waited %s ms", $m[1] ?? '?'));
check($redis->keys() === [], 'no key left');

passed();
