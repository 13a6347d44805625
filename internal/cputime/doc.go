// Package cputime reads the CPU time the process has used (user and system), for
// the benchmarks whose budgets are in CPU time: on a shared machine wall-clock
// figures mostly measure the neighbours. Each platform reads it its own way
// (getrusage on Unix, GetProcessTimes on Windows); elsewhere Process says it cannot.
package cputime
