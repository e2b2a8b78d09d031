import { PageHeader } from "../components/layout";
import { useSignedIn } from "../session";
import { SettingsNav } from "./settings-nav";

export function AccountPage() {
  const session = useSignedIn();
  return (
    <>
      <PageHeader title="Settings" />
      <SettingsNav />
      <dl className="facts">
        <dt>Organisation</dt>
        <dd>{session.organization.name}</dd>
        <dt>Organisation slug</dt>
        <dd>
          <code>{session.organization.slug}</code>
        </dd>
        <dt>Your role</dt>
        <dd>{session.role}</dd>
        <dt>Session ends at the latest</dt>
        <dd>{new Date(session.expiresAt).toLocaleString()} (sooner after 8 hours unused)</dd>
      </dl>
    </>
  );
}
