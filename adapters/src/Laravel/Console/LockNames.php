<?php

declare(strict_types=1);

namespace RedisLock\Laravel\Console;

/**
 * What a lock is, read from the name Laravel gave it: a unique job, a
 * WithoutOverlapping job, a scheduled task (named by its command when the
 * schedule knows it), an isolated command, a blocking session. '' for the
 * application's own names.
 *
 * @internal
 */
final class LockNames
{
    /**
     * @param array<string, string> $scheduled the schedule's mutex names => what each task runs
     */
    public static function what(string $name, array $scheduled = []): string
    {
        if (preg_match('~^laravel_unique_job:([^:]+):(.*)$~s', $name, $m)) {
            return 'unique job ' . $m[1] . ($m[2] === '' ? '' : " ({$m[2]})");
        }
        if (preg_match('~^laravel-queue-overlap:([^:]+):(.*)$~s', $name, $m)) {
            return "WithoutOverlapping {$m[1]} ({$m[2]})";
        }
        if (preg_match('~^(framework[/\\\\]schedule-[0-9a-f]{40})(\d{4})?$~', $name, $m)) {
            $task = $scheduled[$m[1]] ?? 'a scheduled task';

            return isset($m[2]) ? "schedule: $task (onOneServer, {$m[2][0]}{$m[2][1]}:{$m[2][2]}{$m[2][3]})" : "schedule: $task (withoutOverlapping)";
        }
        if (preg_match('~^framework[/\\\\]command-(.+)$~s', $name, $m)) {
            return "isolated command {$m[1]}";
        }
        if (str_starts_with($name, 'session:')) {
            return 'session (block)';
        }

        return '';
    }
}
