<?php
// The ceiling: the same request path (nginx → php-fpm) without any lock.
echo "ok\n";
