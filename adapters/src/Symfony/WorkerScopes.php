<?php

declare(strict_types=1);

namespace RedisLock\Symfony;

use Psr\Log\LoggerInterface;
use RedisLock\Internal\UnitScopes;
use Symfony\Component\EventDispatcher\EventSubscriberInterface;
use Symfony\Contracts\Service\ResetInterface;

/**
 * Each main request and each Messenger message is a unit of work
 * (RedisLock::beginScope()/endScope(), docs/workers.md): what it leaves held
 * is released when it ends, and its renewals stop, instead of staying held
 * for as long as a worker lives (messenger:consume, Runtime's worker runners
 * such as FrankenPhpWorkerRunner). A request ends at kernel.terminate, a
 * message when it was handled or failed; the worker stopping, and
 * kernel.reset (between a worker's requests, and between messages unless
 * messenger:consume runs with --no-reset), end every unit still open.
 * adapters/config/symfony/redis_lock.php registers it. Locks a unit left
 * behind are logged as a warning when a logger is given.
 *
 * Each unit also labels the lock tokens taken in it (RedisLock::setLabel(),
 * shown by RedisLock::locks(), redis-lock and the redis-lock:* commands): a
 * request by its X-Request-Id header, else its method and path; a message by
 * its class's short name. Not where redis_lock.label is set: that label, the
 * operator's, stays.
 */
final class WorkerScopes implements EventSubscriberInterface, ResetInterface
{
    private UnitScopes $scopes;

    public function __construct(?LoggerInterface $logger = null)
    {
        $this->scopes = new UnitScopes($logger === null ? null : static function (string $unit, array $left) use ($logger): void {
            $logger->warning('redis_lock: a unit of work left locks behind; released at its end', ['unit' => $unit] + $left);
        });
    }

    public static function getSubscribedEvents(): array
    {
        return [
            'kernel.request' => ['onRequest', 4096],
            'kernel.terminate' => ['onTerminate', -4096],
            'Symfony\Component\Messenger\Event\WorkerMessageReceivedEvent' => ['onMessage', 4096],
            'Symfony\Component\Messenger\Event\WorkerMessageHandledEvent' => ['onMessageEnd', -4096],
            'Symfony\Component\Messenger\Event\WorkerMessageFailedEvent' => ['onMessageEnd', -4096],
            'Symfony\Component\Messenger\Event\WorkerStoppedEvent' => ['reset', -4096],
        ];
    }

    public function onRequest(object $event): void
    {
        $main = method_exists($event, 'isMainRequest') ? $event->isMainRequest() : $event->isMasterRequest();
        if ($main) {
            $this->scopes->begin('request');
            $request = $event->getRequest();
            self::label($request->headers->get('X-Request-Id') ?? $request->getMethod() . ' ' . $request->getPathInfo());
        }
    }

    public function onTerminate(): void
    {
        $this->scopes->end('request');
        self::label('');
    }

    public function onMessage(object $event): void
    {
        $message = $event->getEnvelope()->getMessage();
        $this->scopes->begin(spl_object_id($message));
        self::label(substr(strrchr('\\' . $message::class, '\\'), 1));
    }

    public function onMessageEnd(object $event): void
    {
        $this->scopes->end(spl_object_id($event->getEnvelope()->getMessage()));
        self::label('');
    }

    public function reset(): void
    {
        $this->scopes->endAll();
        self::label('');
    }

    /** The label of the tokens taken from now on ('': none), unless the operator set redis_lock.label. */
    private static function label(string $label): void
    {
        if (method_exists(\RedisLock::class, 'setLabel') && (string) ini_get('redis_lock.label') === '') {
            \RedisLock::setLabel($label);
        }
    }
}
