// Package ansible holds no Go code of its own: it is the home of the Ansible
// playbook and role that collect a rocekb host record from every host of an
// inventory (collect.yml, roles/kbcollect), and of the test that runs the
// playbook for real against localhost.
package ansible
