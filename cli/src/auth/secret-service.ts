import { type MessageBus, sessionBus, Variant } from "dbus-native";

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
  const bus = openSessionBus(env);
  try {
    const search = async (attributes: Record<string, string>) => {
      const [unlocked] = await bus.invoke<[string[], string[]]>(
        {
          destination: SECRETS,
          path: "/org/freedesktop/secrets",
          interface: "org.freedesktop.Secret.Service",
          member: "SearchItems",
          signature: "a{ss}",
          body: [attributes],
        },
        { signal },
      );
      return unlocked;
    };
    const ours = { service, username: account };
    const tagged = new Set(await search({ ...ours, account }));
    let changed = 0;
    for (const path of await search(ours)) {
      if (tagged.has(path)) continue;
      const properties = { destination: SECRETS, path, interface: "org.freedesktop.DBus.Properties" };
      const current = await bus.invoke<Record<string, string>>(
        { ...properties, member: "Get", signature: "ss", body: [ITEM, "Attributes"] },
        { signal },
      );
      const attributes = new Variant("a{ss}", { ...current, account });
      await bus.invoke(
        { ...properties, member: "Set", signature: "ssv", body: [ITEM, "Attributes", attributes] },
        { signal },
      );
      changed++;
    }
    return changed;
  } finally {
    // Destroyed, not ended: a bus that stopped answering must not keep the process alive.
    bus.connection.stream.destroy();
  }
}

/**
 * A connection to the session bus at DBUS_SESSION_BUS_ADDRESS, else at `$XDG_RUNTIME_DIR/bus`, as
 * libdbus looks for it.
 */
function openSessionBus(env: NodeJS.ProcessEnv): MessageBus {
  const busAddress =
    env.DBUS_SESSION_BUS_ADDRESS || (env.XDG_RUNTIME_DIR && `unix:path=${env.XDG_RUNTIME_DIR}/bus`);
  if (!busAddress) throw new Error("no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)");
  const bus = sessionBus({ busAddress, fdTransport: false });
  // Unheard, an error of the connection would end the process; closing fails the calls at once,
  // where a refused handshake would leave them waiting.
  bus.connection.on("error", () => bus.connection.stream.destroy());
  return bus;
}
