import { SessionBus, type Variant } from "./dbus";

const SECRETS = "org.freedesktop.secrets";
const ITEM = "org.freedesktop.Secret.Item";

/**
 * Gives the Secret Service items of `service`/`account` the attribute `account`, as other tools name
 * their entries (`secret-tool lookup service svc account ApiKeyAuth`). The keyring addon writes and
 * searches `service` and `username` only; an item keeps those, so the addon (and any earlier svc)
 * still finds it, and gains `account`. Items stored before, with `username` alone, are migrated when
 * next read. Locked items are left as they are. Returns how many items it changed.
 */
export async function addAccountAttribute(
  service: string,
  account: string,
  env: NodeJS.ProcessEnv,
  signal: AbortSignal,
): Promise<number> {
  const bus = await SessionBus.open(env, signal);
  try {
    const search = async (attributes: Record<string, string>) => {
      const [unlocked] = await bus.call({
        destination: SECRETS,
        path: "/org/freedesktop/secrets",
        interface: "org.freedesktop.Secret.Service",
        member: "SearchItems",
        signature: "a{ss}",
        body: [Object.entries(attributes)],
      });
      return unlocked as string[];
    };
    const ours = { service, username: account };
    const tagged = new Set(await search({ ...ours, account }));
    let changed = 0;
    for (const path of await search(ours)) {
      if (tagged.has(path)) continue;
      const [current] = await bus.call({
        destination: SECRETS,
        path,
        interface: "org.freedesktop.DBus.Properties",
        member: "Get",
        signature: "ss",
        body: [ITEM, "Attributes"],
      });
      const attributes = new Map((current as Variant).value as [string, string][]);
      attributes.set("account", account);
      await bus.call({
        destination: SECRETS,
        path,
        interface: "org.freedesktop.DBus.Properties",
        member: "Set",
        signature: "ssv",
        body: [ITEM, "Attributes", { signature: "a{ss}", value: [...attributes] }],
      });
      changed++;
    }
    return changed;
  } finally {
    bus.close();
  }
}
