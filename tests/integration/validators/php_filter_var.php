<?php
// PHP's filter_var with its defaults (FILTER_VALIDATE_URL, FILTER_VALIDATE_EMAIL) on the values read from stdin
// (JSON lines of {"kind": "url" | "email", "value": ...}); prints the validators run and every value refused.
$refused = [];
$filters = [
    'url' => ['PHP ' . PHP_VERSION . ' filter_var FILTER_VALIDATE_URL', FILTER_VALIDATE_URL],
    'email' => ['PHP ' . PHP_VERSION . ' filter_var FILTER_VALIDATE_EMAIL', FILTER_VALIDATE_EMAIL],
];
while (($line = fgets(STDIN)) !== false) {
    if (trim($line) === '') continue;
    $entry = json_decode($line, true);
    [$name, $filter] = $filters[$entry['kind']];
    if (filter_var($entry['value'], $filter) === false) {
        $refused[] = ['validator' => $name, 'kind' => $entry['kind'], 'value' => $entry['value'], 'reason' => 'false'];
    }
}
echo json_encode([
    'ran' => [$filters['url'][0], $filters['email'][0]],
    'skipped' => [],
    'refused' => $refused,
], JSON_UNESCAPED_SLASHES);
