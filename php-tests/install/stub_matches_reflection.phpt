--TEST--
stubs/redis_lock.stub.php declares exactly what the extension has: classes, flags, parents, methods, parameters (with their attributes), defaults, types
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
require __DIR__ . '/../inc/reflect.inc';

// The stub, read as user code by a PHP without the extension.
$stub = realpath(RL_REPO) . '/stubs/redis_lock.stub.php';
$r = PhpChild::run(<<<'PHP'
<?php
require $argv[1];
$types = fn () => array_merge(get_declared_classes(), get_declared_interfaces(), get_declared_traits());
$classes = $types();
$functions = get_defined_functions()['user'];
$constants = get_defined_constants(true)['user'] ?? [];
require $argv[2];
$new = array_values(array_diff($types(), $classes));
$newFunctions = array_values(array_diff(get_defined_functions()['user'], $functions));
$newConstants = array_diff_key(get_defined_constants(true)['user'] ?? [], $constants);
echo serialize([extension_loaded('redis_lock'), rl_describe_api($new, $newFunctions, $newConstants)]);
PHP, [], [__DIR__ . '/../inc/reflect.inc', $stub], false);
if ($r['status'] !== 0 || $r['err'] !== '') {
    echo "the stub does not load:\n", $r['out'], $r['err'];
    exit(1);
}
[$loaded, $fromStub] = unserialize($r['out']);
echo "stub read without the extension: ", var_export($loaded === false, true), "\n";

// The extension, as Reflection sees it.
$ext = new ReflectionExtension('redis_lock');
$fromExt = rl_describe_api($ext->getClassNames(), array_keys($ext->getFunctions()), $ext->getConstants());

echo "classes: ", implode(', ', array_keys($fromExt['classes'])), "\n";
echo "same classes: ", var_export(array_keys($fromStub['classes']) === array_keys($fromExt['classes']), true), "\n";
echo "same functions: ", var_export(array_keys($fromStub['functions']) === array_keys($fromExt['functions']), true), "\n";
echo "same constants: ", var_export(array_keys($fromStub['constants']) === array_keys($fromExt['constants']), true), "\n";
// RedLock is among the compared classes, with its union return types.
$red = fn (array $api) => $api['classes']['RedLock'] ?? null;
echo "RedLock in both: ", var_export($red($fromStub) !== null && $red($fromExt) !== null, true), "\n";
foreach (['stub' => $fromStub, 'extension' => $fromExt] as $side => $api) {
    $m = $red($api)['methods'] ?? [];
    echo "RedLock methods ($side): ", implode(', ', array_keys($m)), "; lock(): ", $m['lock']['returnType'] ?? '?',
        ", extend(): ", $m['extend']['returnType'] ?? '?', ", unlock(): ", $m['unlock']['returnType'] ?? '?', "\n";
}
foreach (['stub' => $fromStub, 'extension' => $fromExt] as $side => $api) {
    $attrs = $red($api)['methods']['__construct']['parameters']['servers']['attributes'] ?? ['?'];
    echo "RedLock::__construct() \$servers attributes ($side): ", implode(', ', $attrs), "\n";
}
$methods = array_sum(array_map(fn ($c) => count($c['methods']), $fromExt['classes']));
echo "methods compared: ", var_export($methods >= 2, true), "\n";
$diff = rl_api_diff($fromStub, $fromExt);
echo "differences:", $diff === [] ? " none" : "\n  " . implode("\n  ", $diff), "\n";
?>
--EXPECTF--
stub read without the extension: true
classes: %s
same classes: true
same functions: true
same constants: true
RedLock in both: true
RedLock methods (stub): __construct, extend, lock, unlock; lock(): array|false, extend(): array|false, unlock(): bool
RedLock methods (extension): __construct, extend, lock, unlock; lock(): array|false, extend(): array|false, unlock(): bool
RedLock::__construct() $servers attributes (stub): SensitiveParameter[]
RedLock::__construct() $servers attributes (extension): SensitiveParameter[]
methods compared: true
differences: none
