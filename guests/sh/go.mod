module agentos/guests/sh

go 1.26.0

require mvdan.cc/sh/v3 v3.14.1

require (
	golang.org/x/sys v0.47.0 // indirect
	golang.org/x/term v0.45.0 // indirect
)
