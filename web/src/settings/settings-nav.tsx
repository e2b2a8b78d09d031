import { NavLink } from "react-router";

export function SettingsNav() {
  return (
    <nav aria-label="Settings" className="tabs">
      <NavLink to="/settings/keys">API keys</NavLink>
      <NavLink to="/settings/members">Members</NavLink>
      <NavLink to="/settings/account">Account</NavLink>
    </nav>
  );
}
