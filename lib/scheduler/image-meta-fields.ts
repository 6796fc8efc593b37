// Generated from nova.objects.ImageMetaProps (Nova 26 Zed): field kinds and enum values.
export type ImageFieldKind = "arch" | "hv_type" | "vm_mode" | "enum" | "int" | "bool" | "string" | "other";
export const IMAGE_META_FIELDS: Record<string, { kind: ImageFieldKind; values?: string[] }> = {
  hw_architecture: {
    kind: "arch",
  },
  hw_auto_disk_config: {
    kind: "string",
  },
  hw_boot_menu: {
    kind: "bool",
  },
  hw_cdrom_bus: {
    kind: "enum",
    values: ["fdc", "ide", "sata", "scsi", "usb", "virtio", "xen", "lxc", "uml"],
  },
  hw_cpu_cores: {
    kind: "int",
  },
  hw_cpu_max_cores: {
    kind: "int",
  },
  hw_cpu_max_sockets: {
    kind: "int",
  },
  hw_cpu_max_threads: {
    kind: "int",
  },
  hw_cpu_policy: {
    kind: "enum",
    values: ["dedicated", "shared", "mixed"],
  },
  hw_cpu_realtime_mask: {
    kind: "string",
  },
  hw_cpu_sockets: {
    kind: "int",
  },
  hw_cpu_thread_policy: {
    kind: "enum",
    values: ["prefer", "isolate", "require"],
  },
  hw_cpu_threads: {
    kind: "int",
  },
  hw_device_id: {
    kind: "int",
  },
  hw_disk_bus: {
    kind: "enum",
    values: ["fdc", "ide", "sata", "scsi", "usb", "virtio", "xen", "lxc", "uml"],
  },
  hw_disk_type: {
    kind: "string",
  },
  hw_emulation_architecture: {
    kind: "arch",
  },
  hw_ephemeral_encryption: {
    kind: "bool",
  },
  hw_ephemeral_encryption_format: {
    kind: "enum",
    values: ["plain", "luks", "luksv2"],
  },
  hw_firmware_type: {
    kind: "enum",
    values: ["uefi", "bios"],
  },
  hw_floppy_bus: {
    kind: "enum",
    values: ["fdc", "ide", "sata", "scsi", "usb", "virtio", "xen", "lxc", "uml"],
  },
  hw_input_bus: {
    kind: "enum",
    values: ["usb", "virtio"],
  },
  hw_ipxe_boot: {
    kind: "bool",
  },
  hw_locked_memory: {
    kind: "bool",
  },
  hw_machine_type: {
    kind: "string",
  },
  hw_mem_encryption: {
    kind: "bool",
  },
  hw_mem_page_size: {
    kind: "string",
  },
  hw_numa_cpus: {
    kind: "other",
  },
  hw_numa_mem: {
    kind: "other",
  },
  hw_numa_nodes: {
    kind: "int",
  },
  hw_pci_numa_affinity_policy: {
    kind: "enum",
    values: ["required", "legacy", "preferred", "socket"],
  },
  hw_pmu: {
    kind: "bool",
  },
  hw_pointer_model: {
    kind: "enum",
    values: ["usbtablet"],
  },
  hw_qemu_guest_agent: {
    kind: "bool",
  },
  hw_rescue_bus: {
    kind: "enum",
    values: ["fdc", "ide", "sata", "scsi", "usb", "virtio", "xen", "lxc", "uml"],
  },
  hw_rescue_device: {
    kind: "enum",
    values: ["cdrom", "disk", "floppy", "fs", "lun"],
  },
  hw_rng_model: {
    kind: "enum",
    values: ["virtio"],
  },
  hw_scsi_model: {
    kind: "enum",
    values: ["buslogic", "ibmvscsi", "lsilogic", "lsisas1068", "lsisas1078", "virtio-scsi", "vmpvscsi"],
  },
  hw_serial_port_count: {
    kind: "int",
  },
  hw_time_hpet: {
    kind: "bool",
  },
  hw_tpm_model: {
    kind: "enum",
    values: ["tpm-tis", "tpm-crb"],
  },
  hw_tpm_version: {
    kind: "enum",
    values: ["1.2", "2.0"],
  },
  hw_video_model: {
    kind: "enum",
    values: ["cirrus", "qxl", "vga", "vmvga", "xen", "virtio", "gop", "none", "bochs"],
  },
  hw_video_ram: {
    kind: "int",
  },
  hw_vif_model: {
    kind: "enum",
    values: [
      "virtio",
      "ne2k_pci",
      "pcnet",
      "rtl8139",
      "e1000",
      "e1000e",
      "netfront",
      "spapr-vlan",
      "lan9118",
      "sriov",
      "vmxnet",
      "vmxnet3",
    ],
  },
  hw_vif_multiqueue_enabled: {
    kind: "bool",
  },
  hw_viommu_model: {
    kind: "enum",
    values: ["intel", "smmuv3", "virtio", "auto"],
  },
  hw_vm_mode: {
    kind: "vm_mode",
  },
  hw_watchdog_action: {
    kind: "enum",
    values: ["none", "pause", "poweroff", "reset", "disabled"],
  },
  img_bdm_v2: {
    kind: "bool",
  },
  img_bittorrent: {
    kind: "bool",
  },
  img_block_device_mapping: {
    kind: "other",
  },
  img_cache_in_nova: {
    kind: "bool",
  },
  img_compression_level: {
    kind: "int",
  },
  img_config_drive: {
    kind: "enum",
    values: ["optional", "mandatory"],
  },
  img_hide_hypervisor_id: {
    kind: "bool",
  },
  img_hv_requested_version: {
    kind: "string",
  },
  img_hv_type: {
    kind: "hv_type",
  },
  img_linked_clone: {
    kind: "bool",
  },
  img_mappings: {
    kind: "other",
  },
  img_owner_id: {
    kind: "string",
  },
  img_root_device_name: {
    kind: "string",
  },
  img_signature: {
    kind: "string",
  },
  img_signature_certificate_uuid: {
    kind: "string",
  },
  img_signature_hash_method: {
    kind: "enum",
    values: ["SHA-224", "SHA-256", "SHA-384", "SHA-512"],
  },
  img_signature_key_type: {
    kind: "enum",
    values: [
      "DSA",
      "ECC_SECP384R1",
      "ECC_SECP521R1",
      "ECC_SECT409K1",
      "ECC_SECT409R1",
      "ECC_SECT571K1",
      "ECC_SECT571R1",
      "RSA-PSS",
    ],
  },
  img_use_agent: {
    kind: "bool",
  },
  img_version: {
    kind: "int",
  },
  os_admin_user: {
    kind: "string",
  },
  os_command_line: {
    kind: "string",
  },
  os_distro: {
    kind: "string",
  },
  os_require_quiesce: {
    kind: "bool",
  },
  os_secure_boot: {
    kind: "enum",
    values: ["required", "disabled", "optional"],
  },
  os_skip_agent_inject_files_at_boot: {
    kind: "bool",
  },
  os_skip_agent_inject_ssh: {
    kind: "bool",
  },
  os_type: {
    kind: "enum",
    values: ["linux", "windows"],
  },
  traits_required: {
    kind: "other",
  },
};
export const LEGACY_IMAGE_PROPERTIES: Record<string, string> = {
  architecture: "hw_architecture",
  owner_id: "img_owner_id",
  vmware_disktype: "hw_disk_type",
  vmware_image_version: "img_version",
  vmware_ostype: "os_distro",
  auto_disk_config: "hw_auto_disk_config",
  ipxe_boot: "hw_ipxe_boot",
  xenapi_device_id: "hw_device_id",
  xenapi_image_compression_level: "img_compression_level",
  vmware_linked_clone: "img_linked_clone",
  xenapi_use_agent: "img_use_agent",
  xenapi_skip_agent_inject_ssh: "os_skip_agent_inject_ssh",
  xenapi_skip_agent_inject_files_at_boot: "os_skip_agent_inject_files_at_boot",
  cache_in_nova: "img_cache_in_nova",
  vm_mode: "hw_vm_mode",
  bittorrent: "img_bittorrent",
  mappings: "img_mappings",
  block_device_mapping: "img_block_device_mapping",
  bdm_v2: "img_bdm_v2",
  root_device_name: "img_root_device_name",
  hypervisor_version_requires: "img_hv_requested_version",
  hypervisor_type: "img_hv_type",
};

/** ImageMetaProps.fields in declaration order (the order from_dict sets them). */
export const IMAGE_META_FIELD_ORDER: string[] = [
  "hw_architecture",
  "hw_emulation_architecture",
  "hw_auto_disk_config",
  "hw_boot_menu",
  "hw_cdrom_bus",
  "hw_cpu_cores",
  "hw_cpu_sockets",
  "hw_cpu_max_cores",
  "hw_cpu_max_sockets",
  "hw_cpu_max_threads",
  "hw_cpu_policy",
  "hw_cpu_thread_policy",
  "hw_cpu_realtime_mask",
  "hw_cpu_threads",
  "hw_device_id",
  "hw_disk_bus",
  "hw_disk_type",
  "hw_floppy_bus",
  "hw_firmware_type",
  "hw_input_bus",
  "hw_ipxe_boot",
  "hw_locked_memory",
  "hw_machine_type",
  "hw_mem_encryption",
  "hw_mem_page_size",
  "hw_numa_nodes",
  "hw_numa_cpus",
  "hw_numa_mem",
  "hw_pci_numa_affinity_policy",
  "hw_pointer_model",
  "hw_pmu",
  "hw_qemu_guest_agent",
  "hw_rescue_bus",
  "hw_rescue_device",
  "hw_rng_model",
  "hw_time_hpet",
  "hw_serial_port_count",
  "hw_scsi_model",
  "hw_video_model",
  "hw_video_ram",
  "hw_vif_model",
  "hw_viommu_model",
  "hw_vm_mode",
  "hw_watchdog_action",
  "hw_vif_multiqueue_enabled",
  "hw_tpm_model",
  "hw_tpm_version",
  "hw_ephemeral_encryption",
  "hw_ephemeral_encryption_format",
  "img_bittorrent",
  "img_bdm_v2",
  "img_block_device_mapping",
  "img_cache_in_nova",
  "img_compression_level",
  "img_hv_requested_version",
  "img_hv_type",
  "img_config_drive",
  "img_linked_clone",
  "img_mappings",
  "img_owner_id",
  "img_root_device_name",
  "img_use_agent",
  "img_version",
  "img_signature",
  "img_signature_hash_method",
  "img_signature_certificate_uuid",
  "img_signature_key_type",
  "img_hide_hypervisor_id",
  "os_admin_user",
  "os_command_line",
  "os_distro",
  "os_require_quiesce",
  "os_secure_boot",
  "os_skip_agent_inject_files_at_boot",
  "os_skip_agent_inject_ssh",
  "os_type",
  "traits_required",
];
