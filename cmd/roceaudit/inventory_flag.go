package main

import "github.com/spf13/cobra"

// inventoryFlag adds -i/--inventory to a command that reads an inventory, with the one help
// text every such command shares.
func inventoryFlag(cmd *cobra.Command, dst *string) {
	cmd.Flags().StringVarP(dst, "inventory", "i", "",
		"inventory: a roceaudit YAML file, clab:FILE (containerlab topology) or ansible:FILE (Ansible YAML inventory)")
}
