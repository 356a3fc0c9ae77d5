module sandbox

go 1.19
