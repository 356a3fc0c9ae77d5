module goalt

go 1.19
