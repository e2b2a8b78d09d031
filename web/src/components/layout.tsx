import type { ReactNode } from "react";
import { Link, NavLink, useMatch, useNavigate } from "react-router";
import { useSession, useSignedIn } from "../session";
import { ConnectionBanner } from "./connection-banner";
import { useToasts } from "./toasts";

export function AppShell({ children }: { children: ReactNode }) {
  const session = useSignedIn();
  const { signOut } = useSession();
  const navigate = useNavigate();
  const toasts = useToasts();
  const projectSlug = useMatch("/projects/:projectSlug/*")?.params.projectSlug;
  const onTraces = useMatch("/projects/:projectSlug/traces/*") !== null;
  const onProjects = useMatch("/projects/*") !== null && !onTraces;
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link to="/projects" className="brand" aria-label="svc home">
          <span className="brand-mark" aria-hidden="true" />
          svc
        </Link>
        <nav aria-label="Main" className="topnav">
          <Link
            to="/projects"
            className={onProjects ? "active" : undefined}
            aria-current={onProjects ? "page" : undefined}
          >
            Projects
          </Link>
          {/* The traces of the project being worked in, one step away from its datasets. */}
          {projectSlug ? <NavLink to={`/projects/${projectSlug}/traces`}>Traces</NavLink> : null}
          <NavLink to="/settings/keys">Settings</NavLink>
        </nav>
        <div className="topbar-end">
          <span className="org" title={`Organisation ${session.organization.slug}`}>
            {session.organization.name}
            <span className="role-badge">{session.role}</span>
          </span>
          <button
            type="button"
            className="button button-quiet"
            onClick={() =>
              signOut().then(
                () => navigate("/sign-in"),
                (error: Error) =>
                  toasts.show({ kind: "error", message: `Could not sign out: ${error.message}` }),
              )
            }
          >
            Sign out
          </button>
        </div>
      </header>
      <ConnectionBanner />
      <main id="main" className="main">
        {children}
      </main>
    </div>
  );
}

export function PageHeader({
  title,
  crumbs,
  actions,
}: {
  title: ReactNode;
  crumbs?: { label: string; to: string }[];
  actions?: ReactNode;
}) {
  return (
    <div className="page-header">
      <div>
        {crumbs && crumbs.length > 0 ? (
          <nav aria-label="Breadcrumb" className="crumbs">
            {crumbs.map((crumb) => (
              <span key={crumb.to}>
                <Link to={crumb.to}>{crumb.label}</Link>
                <span aria-hidden="true"> / </span>
              </span>
            ))}
          </nav>
        ) : null}
        <h1>{title}</h1>
      </div>
      {actions ? <div className="page-actions">{actions}</div> : null}
    </div>
  );
}
