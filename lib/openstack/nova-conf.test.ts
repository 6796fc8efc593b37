import { describe, expect, it } from "vitest";
import { resolveConfig } from "@/lib/scheduler/config";
import { DEMO_PROFILES } from "@/lib/demo/cloud";
import { effectiveConfig, exportNovaConf, importNovaConf, parseIni } from "./nova-conf";

describe("nova.conf parsing (oslo.config's rules)", () => {
  it.each<[string, string, Record<string, unknown>]>([
    ["comments and spaces", "# c\n[filter_scheduler]\n; c\nhost_subset_size = 3\n", { host_subset_size: 3 }],
    ["colon form", "[filter_scheduler]\nhost_subset_size: 3\n", { host_subset_size: 3 }],
    ["last value wins", "[filter_scheduler]\nhost_subset_size = 3\nhost_subset_size = 4\n", { host_subset_size: 4 }],
    [
      "continuation lines of a list",
      "[filter_scheduler]\nenabled_filters = ComputeFilter,\n  NUMATopologyFilter\n",
      { enabled_filters: ["ComputeFilter", "NUMATopologyFilter"] },
    ],
    ["booleans as oslo reads them", "[scheduler]\nimage_metadata_prefilter = On\n", { image_metadata_prefilter: true }],
    ["float", "[filter_scheduler]\ncpu_weight_multiplier = -2.5e1\n", { cpu_weight_multiplier: -25 }],
    [
      "weigher classes by path",
      "[filter_scheduler]\nweight_classes = nova.scheduler.weights.ram.RAMWeigher, nova.scheduler.weights.affinity.ServerGroupSoftAffinityWeigher\n",
      { weighers: ["RAMWeigher", "ServerGroupSoftAffinityWeigher"] },
    ],
    [
      "repeated [pci] alias",
      '[pci]\nalias = {"name": "a", "vendor_id": "10de", "product_id": "20b5"}\nalias = {"name": "b", "vendor_id": "10de", "product_id": "1eb8"}\n',
      {
        pci_alias: [
          { name: "a", vendor_id: "10de", product_id: "20b5" },
          { name: "b", vendor_id: "10de", product_id: "1eb8" },
        ],
      },
    ],
    [
      "the deprecated [DEFAULT] pci_alias",
      '[DEFAULT]\npci_alias = {"name": "a", "vendor_id": "10de", "product_id": "20b5"}\n',
      { pci_alias: [{ name: "a", vendor_id: "10de", product_id: "20b5" }] },
    ],
    [
      "[metrics] names",
      "[metrics]\nweight_setting = cpu.percent=1.0\nweight_multiplier = 2\nweight_of_unavailable = -1\n",
      { metrics_weight_setting: "cpu.percent=1.0", metrics_weight_multiplier: 2, metrics_weight_of_unavailable: -1 },
    ],
    [
      "empty StrOpt is None",
      "[filter_scheduler]\nimage_properties_default_architecture =\n",
      { image_properties_default_architecture: null },
    ],
    [
      "a # inside a value stays",
      "[DEFAULT]\ndefault_availability_zone = az#1\n",
      { default_availability_zone: "az#1" },
    ],
    ["the conductor's live-migrate retry limit", "[DEFAULT]\nmigrate_max_retries = 2\n", { migrate_max_retries: 2 }],
  ])("%s", (_name, text, config) => {
    const r = importNovaConf(text);
    expect(r.errors).toEqual([]);
    expect(r.config).toEqual({ ...config, placement: true });
  });

  it("reports every option: kept into which key, ignored with why, unknown", () => {
    const r = importNovaConf(
      [
        "[DEFAULT]",
        "debug = true",
        "scheduler_default_filters = RamFilter,ComputeFilter",
        "ram_weight_multiplier = -1.0",
        'pci_alias = {"name": "a", "product_id": "154d"}',
        "[filter_scheduler]",
        "host_subset_size = 2",
        "track_instance_changes = false",
        "shard_filter_size = 3",
        "[database]",
        "connection = x",
        "",
      ].join("\n"),
    );
    expect(r.errors).toEqual([]);
    expect(r.report.map((x) => [x.option, x.line, x.status])).toEqual([
      ["[DEFAULT] (1 option)", 2, "ignored"],
      ["[DEFAULT] scheduler_default_filters", 3, "ignored"],
      ["[DEFAULT] ram_weight_multiplier", 4, "ignored"],
      ["[DEFAULT] pci_alias", 5, "kept"],
      ["[filter_scheduler] host_subset_size", 7, "kept"],
      ["[filter_scheduler] track_instance_changes", 8, "ignored"],
      ["[filter_scheduler] shard_filter_size", 9, "unknown"],
      ["[database] (1 option)", 11, "ignored"],
    ]);
    // a Zed scheduler does not read the pre-Pike [DEFAULT] names: neither does the profile
    expect(r.config.enabled_filters).toBeUndefined();
    expect(r.config.ram_weight_multiplier).toBeUndefined();
    expect(r.report[1].detail).toMatch(
      /Nova Zed and later no longer read it \(set \[filter_scheduler\] enabled_filters\)/,
    );
    expect(r.report[3].detail).toBe("pci_alias (deprecated name of [pci] alias, which Nova Zed still reads)");
  });

  it.each<[string, string, string]>([
    [
      "host_subset_size = 0",
      "[filter_scheduler]\nhost_subset_size = 0\n",
      "[filter_scheduler] host_subset_size (line 2): must be >= 1, got 0",
    ],
    [
      "migrate_max_retries = -2",
      "[DEFAULT]\nmigrate_max_retries = -2\n",
      "[DEFAULT] migrate_max_retries (line 2): must be >= -1, got -2",
    ],
    [
      "Zed: an alias with only a name and a product id is valid; 2023.1's resource_class is not",
      '[pci]\nalias = {"name": "a2", "product_id": "154d"}\nalias = {"name": "g", "resource_class": "CUSTOM_G"}\n',
      `[pci] alias (line 2)[1].resource_class: not in Nova zed's [pci] alias schema (2023.1 and later accept it) (a 2023.1+ cloud: choose its Nova release on import, or add [schedscope] nova_release = "2023.1")`,
    ],
  ])("the profile editor's rules, naming the option: %s", (_name, text, error) => {
    expect(importNovaConf(text).errors).toEqual([error]);
  });

  it("2023.1 aliases with resource_class and traits pass when the profile says 2023.1", () => {
    const r = importNovaConf(
      '[pci]\nalias = {"name": "g", "resource_class": "CUSTOM_G", "traits": "CUSTOM_A,CUSTOM_B"}\n[schedscope]\nnova_release = "2023.1"\n',
    );
    expect(r.errors).toEqual([]);
  });

  const ALIAS_2023 = '[pci]\nalias = {"name": "g", "resource_class": "CUSTOM_G", "traits": "CUSTOM_A,CUSTOM_B"}\n';

  it("a file valid only after Zed that names no release offers the releases that accept it", () => {
    const r = importNovaConf(ALIAS_2023);
    expect(r.errors).toHaveLength(2);
    expect(r.releaseChoice).toEqual(["2023.1", "2023.2", "2024.1", "2024.2", "2025.1", "2025.2", "2026.1"]);
    // a file valid in Zed, or one that names its release, offers nothing
    expect(importNovaConf('[pci]\nalias = {"name": "a2"}\n').releaseChoice).toBeUndefined();
    expect(importNovaConf(`${ALIAS_2023}[schedscope]\nnova_release = "zed"\n`).releaseChoice).toBeUndefined();
  });

  it.each<[string, string, "2023.1" | "2024.1" | "zed", string[], string | undefined]>([
    ["the chosen release is kept, and the report says it was chosen", ALIAS_2023, "2024.1", [], "2024.1"],
    [
      "the file's own release agrees with the choice",
      `${ALIAS_2023}[schedscope]\nnova_release = "2023.1"\n`,
      "2023.1",
      [],
      "2023.1",
    ],
    [
      "a choice that contradicts the file's release is refused",
      `${ALIAS_2023}[schedscope]\nnova_release = "2023.1"\n`,
      "2024.1",
      [
        '[schedscope] nova_release (line 4): the file names "2023.1", not the release chosen on import (2024.1); import it without choosing one, or change the file',
      ],
      "2023.1",
    ],
    [
      "choosing Zed does not make 2023.1 aliases valid",
      ALIAS_2023,
      "zed",
      [
        "[pci] alias (line 2)[0].resource_class: not in Nova zed's [pci] alias schema (2023.1 and later accept it)",
        "[pci] alias (line 2)[0].traits: not in Nova zed's [pci] alias schema (2023.1 and later accept it)",
      ],
      "zed",
    ],
  ])("a release chosen on import: %s", (_what, text, release, errors, kept) => {
    const r = importNovaConf(text, { release });
    expect(r.errors).toEqual(errors);
    expect(r.config.nova_release).toBe(kept);
    const chosenRow = r.report.find((x) => x.detail.includes("chosen on import"));
    expect(chosenRow?.option).toBe(text.includes("nova_release") ? undefined : "[schedscope] nova_release");
  });

  it.each<[string, string, boolean]>([
    ["a real nova.conf schedules through Placement", "[filter_scheduler]\nhost_subset_size = 2\n", true],
    ["[schedscope] placement = false keeps filters only", "[schedscope]\nplacement = false\n", false],
  ])("%s", (_name, text, placement) => {
    expect(importNovaConf(text).config.placement).toBe(placement);
  });

  it.each([
    ["[scheduler]\nmax_attempts = three\n", '[scheduler] max_attempts (line 2): must be an integer (got "three")'],
    [
      "[filter_scheduler]\nram_weight_multiplier = heavy\n",
      '[filter_scheduler] ram_weight_multiplier (line 2): must be a number (got "heavy")',
    ],
    ["[filter_scheduler\n", 'nova.conf line 1: a section header must be [name] (got "[filter_scheduler")'],
    ["[metrics]\njust words\n", 'nova.conf line 2: expected "option = value" (got "just words")'],
  ])("rejects %j", (text, message) => {
    expect(importNovaConf(text).errors).toEqual([message]);
  });

  it("lists unknown options of the scheduler's sections and the known ones it does not model", () => {
    const r = importNovaConf(
      "[filter_scheduler]\nscheduler_driver = x\ntrack_instance_changes = false\n[pci]\ndevice_spec = {}\n[libvirt]\nvirt_type = kvm\n",
    );
    expect(r.unknown).toEqual(["[filter_scheduler] scheduler_driver"]);
    expect(r.notModelled).toEqual(["[filter_scheduler] track_instance_changes", "[pci] device_spec"]);
    expect(r.otherSections).toEqual(["libvirt"]);
  });

  it("keeps line numbers", () => {
    expect(parseIni("\n[a]\nx = 1\n").entries).toEqual([{ section: "a", key: "x", value: "1", line: 3 }]);
  });
});

describe("profile -> nova.conf -> profile", () => {
  const profiles: [string, Record<string, unknown>][] = [
    ["empty (all defaults)", {}],
    [
      "every kind of option",
      {
        enabled_filters: ["ComputeFilter", "NUMATopologyFilter"],
        weighers: ["RAMWeigher", "PCIWeigher", "ServerGroupSoftAntiAffinityWeigher"],
        ram_weight_multiplier: -1,
        build_failure_weight_multiplier: 0.5,
        host_subset_size: 3,
        shuffle_best_same_weighed_hosts: true,
        isolated_hosts: ["cmp-1", "cmp-2"],
        aggregate_image_properties_isolation_namespace: "ns",
        max_attempts: 1,
        max_placement_results: 20,
        query_placement_for_availability_zone: false,
        metrics_weight_setting: "cpu.percent=-1.0",
        metrics_required: false,
        pci_alias: [{ name: "a100", vendor_id: "10de", product_id: "20b5", numa_policy: "required" }],
        default_availability_zone: "az0",
        migrate_max_retries: 0,
        packing_host_numa_cells_allocation_strategy: true,
        placement: true,
        placement_prefilters: ["compute_status", "resources"],
      },
    ],
    ...DEMO_PROFILES.map(
      (p) => [`demo profile ${p.name}`, p.config as Record<string, unknown>] as [string, Record<string, unknown>],
    ),
  ];

  it.each(profiles)("%s", (_name, config) => {
    const text = exportNovaConf(config, "p");
    const back = importNovaConf(text);
    expect(back.errors).toEqual([]);
    expect(back.unknown).toEqual([]);
    expect(effectiveConfig(back.config)).toEqual(effectiveConfig(config));
    // the engine resolves both to the same settings
    expect(resolveConfig(back.config as never)).toEqual(resolveConfig(config as never));
  });

  it("writes only non-default values, with Nova's names and sections", () => {
    const text = exportNovaConf({
      ram_weight_multiplier: 1.0,
      cpu_weight_multiplier: -1,
      max_attempts: 3,
      max_io_ops_per_host: 16,
      weighers: "all",
      enabled_filters: [
        "ComputeFilter",
        "ComputeCapabilitiesFilter",
        "ImagePropertiesFilter",
        "ServerGroupAntiAffinityFilter",
        "ServerGroupAffinityFilter",
      ],
      metrics_weight_multiplier: 2,
      placement_prefilters: ["traits"],
    });
    const body = text
      .split("\n")
      .filter((l) => l && !l.startsWith("#"))
      .join("\n");
    expect(body).toBe(
      [
        "[filter_scheduler]",
        "max_io_ops_per_host = 16",
        "cpu_weight_multiplier = -1.0",
        "[metrics]",
        "weight_multiplier = 2.0",
        "[schedscope]",
        "placement = false",
        'placement_prefilters = ["traits"]',
      ].join("\n"),
    );
  });

  it("prints weighers as Nova's class paths", () => {
    expect(exportNovaConf({ weighers: ["RAMWeigher", "CrossCellWeigher"] })).toContain(
      "weight_classes = nova.scheduler.weights.ram.RAMWeigher,nova.scheduler.weights.cross_cell.CrossCellWeigher",
    );
  });
});
