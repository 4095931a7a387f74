--TEST--
RedLock::__construct()'s $servers is #[\SensitiveParameter]: exception traces and printed exceptions never show a password from it, even with zend.exception_ignore_args=0
--INI--
zend.exception_ignore_args=0
--FILE--
<?php
foreach ([
    ['redis://u:secret@h:1', 'bad'],
    ['redis://u:secret@h:1', 'redis://u:secret@h:1'],
    [['h', 1], 'redis://:secret@h:0'],
] as $servers) {
    try {
        new RedLock($servers, 7);
    } catch (ValueError $e) {
        $all = $e->getTraceAsString() . "\n" . $e . "\n" . print_r($e->getTrace(), true) . var_export($e->getTrace(), true);
        echo $e->getMessage(), "\n";
        echo "secret shown: ", var_export(str_contains($all, 'secret'), true), "\n";
        echo $e->getTraceAsString(), "\n";
    }
}
$p = (new ReflectionMethod('RedLock', '__construct'))->getParameters()[0];
echo "attributes: ", implode(', ', array_map(fn ($a) => $a->getName(), $p->getAttributes())), "\n";
?>
--EXPECTF--
RedLock::__construct(): Argument #1 ($servers) entry 1 is not a valid server: expected redis://, rediss://, unix://, redis-cluster:// or redis-sentinel://
secret shown: false
#0 %s(%d): RedLock->__construct(Object(SensitiveParameterValue), 7)
#1 {main}
RedLock::__construct(): Argument #1 ($servers) must not list h:1 twice (it would vote twice)
secret shown: false
#0 %s(%d): RedLock->__construct(Object(SensitiveParameterValue), 7)
#1 {main}
RedLock::__construct(): Argument #1 ($servers) entry 1 is not a valid server: invalid port (expected 1 to 65535)
secret shown: false
#0 %s(%d): RedLock->__construct(Object(SensitiveParameterValue), 7)
#1 {main}
attributes: SensitiveParameter
