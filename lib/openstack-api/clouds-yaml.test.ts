/** clouds.yaml and OS_* as the openstack client reads them. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CloudsYamlError, findCloud, settingsFromCloudsYaml, settingsFromEnv } from "./clouds-yaml";
import { tokenRequest } from "./keystone";

// the file ../shared/real-cloud's start.sh writes (password replaced)
const REAL = `clouds:
  real-cloud:
    auth:
      auth_url: http://127.0.0.1:5000/v3
      username: admin
      password: 'p@ss: "word" # not a comment'
      project_name: admin
      user_domain_name: Default
      project_domain_name: Default
    region_name: RegionOne
    identity_api_version: 3
    compute_api_version: "2.92"
    interface: public
  other:
    auth_type: v3applicationcredential
    auth:
      auth_url: https://keystone.example:5000
      application_credential_id: abc123
      application_credential_secret: s3cr3t
    regions:
      - name: RegionTwo
    cacert: /etc/ssl/cloud-ca.pem
    verify: false # lab only
`;

describe("clouds.yaml", () => {
  it.each([
    [
      "the real cloud's file",
      REAL,
      "real-cloud",
      {
        auth_url: "http://127.0.0.1:5000/v3",
        username: "admin",
        password: 'p@ss: "word" # not a comment',
        project_name: "admin",
        user_domain_name: "Default",
        project_domain_name: "Default",
        region_name: "RegionOne",
        interface: "public",
        compute_api_version: "2.92",
      },
    ],
    [
      "an application credential with a region list, CA file and verify off",
      REAL,
      "other",
      {
        auth_type: "v3applicationcredential",
        auth_url: "https://keystone.example:5000",
        application_credential_id: "abc123",
        application_credential_secret: "s3cr3t",
        region_name: "RegionTwo",
        cacert: "/etc/ssl/cloud-ca.pem",
        verify: false,
      },
    ],
    [
      "one entry pasted alone",
      "auth:\n  auth_url: http://k:5000/v3\n  username: u\n  password: p\nregion_name: R\n",
      undefined,
      { auth_url: "http://k:5000/v3", username: "u", password: "p", region_name: "R" },
    ],
  ])("%s", (_name, text, cloud, want) => {
    expect(settingsFromCloudsYaml(text, cloud)).toEqual(want);
  });

  it.each([
    ["no such cloud", REAL, "nope", /has no cloud "nope" \(it has real-cloud, other\)/],
    ["several clouds, none named", REAL, undefined, /name the cloud \(it has real-cloud, other\)/],
    ["no auth_url", "clouds:\n  a:\n    auth:\n      username: u\n", "a", /clouds\.a\.auth\.auth_url: is required/],
    [
      "Keystone v2",
      "clouds:\n  a:\n    identity_api_version: 2\n    auth:\n      auth_url: http://k\n",
      "a",
      /must be 3/,
    ],
    ["a tab", "clouds:\n\ta: 1\n", "a", /line 2: tabs/],
    ["an anchor", "clouds: &x\n", undefined, /YAML feature/],
    ["a prototype key", "__proto__:\n  a: 1\n", undefined, /not allowed/],
  ])("refuses %s, saying why", (_name, text, cloud, msg) => {
    expect(() => settingsFromCloudsYaml(text, cloud)).toThrow(CloudsYamlError);
    expect(() => settingsFromCloudsYaml(text, cloud)).toThrow(msg);
  });

  it("merges secure.yaml over clouds.yaml", () => {
    const s = settingsFromCloudsYaml(
      "clouds:\n  c:\n    auth:\n      auth_url: http://k/v3\n      username: u\n",
      "c",
      "clouds:\n  c:\n    auth:\n      password: from-secure\n",
    );
    expect(s.password).toBe("from-secure");
  });

  it("is found where the openstack client looks: OS_CLIENT_CONFIG_FILE first, then ./clouds.yaml", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "clouds-"));
    try {
      fs.writeFileSync(path.join(dir, "clouds.yaml"), REAL);
      fs.writeFileSync(
        path.join(dir, "secure.yaml"),
        "clouds:\n  other:\n    auth:\n      application_credential_secret: sec\n",
      );
      const env = { HOME: dir, OS_CLOUD: "other" };
      const found = findCloud(undefined, env, dir);
      expect(found.source).toBe(`${path.join(dir, "clouds.yaml")} (cloud other)`);
      expect(found.settings.application_credential_secret).toBe("sec");
      expect(() => findCloud("missing", { HOME: dir }, dir)).toThrow(/no clouds\.yaml names cloud "missing"/);
      expect(() => findCloud(undefined, { HOME: dir }, os.tmpdir())).toThrow(/no cloud: give --os-cloud/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reads an openrc's OS_* variables", () => {
    expect(
      settingsFromEnv({
        OS_AUTH_URL: "http://k:5000/v3",
        OS_USERNAME: "admin",
        OS_PASSWORD: "pw",
        OS_PROJECT_NAME: "admin",
        OS_USER_DOMAIN_NAME: "Default",
        OS_PROJECT_DOMAIN_NAME: "Default",
        OS_REGION_NAME: "RegionOne",
        OS_INTERFACE: "internal",
        OS_CACERT: "/ca.pem",
      }),
    ).toEqual({
      auth_url: "http://k:5000/v3",
      username: "admin",
      password: "pw",
      project_name: "admin",
      user_domain_name: "Default",
      project_domain_name: "Default",
      region_name: "RegionOne",
      interface: "internal",
      cacert: "/ca.pem",
    });
    expect(settingsFromEnv({})).toBeNull();
  });
});

describe("Keystone's token request", () => {
  it.each([
    [
      "password, project scoped, domains by name",
      {
        auth_url: "x",
        username: "u",
        password: "p",
        user_domain_name: "D",
        project_name: "P",
        project_domain_name: "D",
      },
      {
        auth: {
          identity: { methods: ["password"], password: { user: { name: "u", password: "p", domain: { name: "D" } } } },
          scope: { project: { name: "P", domain: { name: "D" } } },
        },
      },
    ],
    [
      "application credential by id (unscoped: the credential carries its project)",
      {
        auth_url: "x",
        auth_type: "v3applicationcredential",
        application_credential_id: "i",
        application_credential_secret: "s",
      },
      { auth: { identity: { methods: ["application_credential"], application_credential: { id: "i", secret: "s" } } } },
    ],
  ])("%s", (_n, s, want) => {
    expect(tokenRequest(s)).toEqual(want);
  });
  it("says what is missing", () => {
    expect(() => tokenRequest({ auth_url: "x", username: "u" })).toThrow("password: is required");
    expect(() =>
      tokenRequest({ auth_url: "x", auth_type: "v3applicationcredential", application_credential_secret: "s" }),
    ).toThrow(/application_credential_id: is required/);
  });
});
