module agentos/guests/probe

go 1.26
