module agentos/guests/awk

go 1.26

require github.com/benhoyt/goawk v1.31.0 // indirect

tool github.com/benhoyt/goawk
