<?php
// PHP's json_decode with its defaults on texts read from stdin, one JSON-encoded string per line; prints one JSON
// line per text: {"read": false} or {"read": true} (PHP reads JSON only, which the test checks).
while (($line = fgets(STDIN)) !== false) {
    $text = json_decode($line);
    json_decode($text);
    echo json_encode(['read' => json_last_error() === JSON_ERROR_NONE]), "\n";
}
