<?php

// A child process of a test: another PHP process with the extension, the
// frameworks and the adapters loaded, redis_lock.server pointing at the test
// server. Runs the code given as its first argument, with:
//   out(string $line)  writes a line to the test (flushed)
//   in(): string       reads a line from the test

declare(strict_types=1);

require __DIR__ . '/deps.php';

ini_set('redis_lock.server', 'redis://127.0.0.1:' . getenv('REDIS_LOCK_TEST_PORT'));

function out(string $line): void
{
    fwrite(STDOUT, $line . "\n");
    fflush(STDOUT);
}

function in(): string
{
    $line = fgets(STDIN);

    return $line === false ? '' : rtrim($line, "\n");
}

eval($argv[1]);
