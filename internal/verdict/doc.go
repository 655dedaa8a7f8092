// Package verdict judges a planned configuration (adapter × kernel or
// distro × stack × firmware) against the matrix: supported,
// supported-with-conditions, unsupported or unknown, each reason tied to
// the matrix entry it rests on, with the nearest supported change.
package verdict
