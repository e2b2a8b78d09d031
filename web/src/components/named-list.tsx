import type { UseMutationResult } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useMemo, useState } from "react";
import { Link } from "react-router";
import { ActionButton } from "./action-button";
import { ConfirmDialog, Dialog, FormActions } from "./dialog";
import { ErrorMessage } from "./errors";
import { SearchBox } from "./search-box";

export interface NamedItem {
  slug: string;
  name: string;
  updatedAt?: string | undefined;
  detail?: ReactNode;
  /** What deleting it deletes, with its counts; the list's `deleteConsequence` when not given. */
  consequence?: string;
}

/** A write the list starts and shows (pending, failed): the page's `useMutation`, taking `V`. */
export type ListWrite<V> = Pick<
  UseMutationResult<unknown, Error, V>,
  "mutate" | "isPending" | "error" | "reset"
>;

/**
 * A searchable list of named things (projects, datasets) with create, rename and delete: the same
 * gestures wherever a curator meets a list.
 */
export function NamedList({
  noun,
  items,
  loading,
  error,
  linkTo,
  canWrite,
  create,
  rename,
  remove,
  deleteConsequence,
}: {
  noun: string;
  items: NamedItem[] | undefined;
  loading: boolean;
  error: unknown;
  linkTo: (item: NamedItem) => string;
  canWrite: boolean;
  create: ListWrite<string>;
  rename: ListWrite<{ item: NamedItem; name: string }>;
  remove: ListWrite<NamedItem>;
  deleteConsequence: string;
}) {
  const [search, setSearch] = useState("");
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<NamedItem>();
  const [deleting, setDeleting] = useState<NamedItem>();
  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return (items ?? []).filter(
      (item) => !needle || item.name.toLowerCase().includes(needle) || item.slug.includes(needle),
    );
  }, [items, search]);

  return (
    <section className="named-list">
      <div className="toolbar">
        <SearchBox
          label={`Search ${noun}s by name`}
          placeholder={`Search ${noun}s`}
          value={search}
          onChange={setSearch}
        />
        {canWrite ? (
          <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
            New {noun}
          </button>
        ) : null}
      </div>
      {error ? <ErrorMessage error={error} /> : null}
      {loading ? (
        <p className="page-status" role="status">
          Loading {noun}s…
        </p>
      ) : shown.length === 0 ? (
        <div className="empty">
          {items && items.length > 0 ? (
            <p>
              No {noun} matches “{search}”.
            </p>
          ) : (
            <>
              <p>No {noun}s yet.</p>
              {canWrite ? (
                <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
                  Create the first {noun}
                </button>
              ) : null}
            </>
          )}
        </div>
      ) : (
        <ul className="cards" aria-label={`${noun}s`}>
          {shown.map((item) => (
            <li key={item.slug} className="card">
              <Link to={linkTo(item)} className="card-link">
                <span className="card-title">{item.name}</span>
                <span className="card-meta">
                  {item.slug}
                  {item.updatedAt ? ` · updated ${new Date(item.updatedAt).toLocaleString()}` : ""}
                </span>
                {item.detail ? <span className="card-detail">{item.detail}</span> : null}
              </Link>
              {canWrite ? (
                <div className="card-actions">
                  <RenameAndRemove
                    record={item}
                    remove="Delete"
                    onRename={setRenaming}
                    onRemove={setDeleting}
                  />
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <NameDialog
        title={`New ${noun}`}
        open={creating}
        initial=""
        submitLabel={`Create ${noun}`}
        busy={create.isPending}
        error={create.error}
        onClose={() => {
          setCreating(false);
          create.reset();
        }}
        onSubmit={(name) => create.mutate(name, { onSuccess: () => setCreating(false) })}
      />
      <RenameDialog
        current={renaming?.name}
        busy={rename.isPending}
        error={rename.error}
        onClose={() => {
          setRenaming(undefined);
          rename.reset();
        }}
        onSubmit={(name) => {
          if (renaming) rename.mutate({ item: renaming, name }, { onSuccess: () => setRenaming(undefined) });
        }}
      />
      <ConfirmDialog
        title={`Delete ${deleting?.name ?? ""}?`}
        open={deleting !== undefined}
        confirmLabel={`Delete ${noun}`}
        busy={remove.isPending}
        body={<p>{deleting?.consequence ?? deleteConsequence} This cannot be undone.</p>}
        error={remove.error}
        onClose={() => {
          setDeleting(undefined);
          remove.reset();
        }}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting, { onSuccess: () => setDeleting(undefined) });
        }}
      />
    </section>
  );
}

/**
 * A named record's two gestures wherever it is listed: Rename, and the one that removes it (Delete,
 * Revoke), each naming the record to a screen reader and handing it back when pressed.
 */
export function RenameAndRemove<T extends { name: string }>({
  record,
  remove,
  onRename,
  onRemove,
}: {
  record: T;
  /** The removing gesture's word. */
  remove: string;
  onRename(record: NoInfer<T>): void;
  onRemove(record: NoInfer<T>): void;
}) {
  return (
    <>
      <ActionButton
        label={`Rename ${record.name}`}
        className="rename-button"
        onClick={() => onRename(record)}
      >
        Rename
      </ActionButton>
      <ActionButton label={`${remove} ${record.name}`} danger onClick={() => onRemove(record)}>
        {remove}
      </ActionButton>
    </>
  );
}

/** The name form's own: what it starts from and says on its button, and what becomes of the name. */
interface NameFormProps {
  initial: string;
  submitLabel: string;
  busy: boolean;
  error: unknown;
  onSubmit: (name: string) => void;
}

/** "Rename X": the name dialog of a thing that has one, open while `current` names it. */
export function RenameDialog({
  current,
  ...dialog
}: Omit<NameFormProps, "initial" | "submitLabel"> & { current: string | undefined; onClose: () => void }) {
  return (
    <NameDialog
      title={`Rename ${current ?? ""}`}
      open={current !== undefined}
      initial={current ?? ""}
      submitLabel="Rename"
      {...dialog}
    />
  );
}

function NameDialog({
  title,
  open,
  onClose,
  ...form
}: NameFormProps & { title: string; open: boolean; onClose: () => void }) {
  return (
    <Dialog title={title} open={open} onClose={onClose}>
      <NameForm {...form} onCancel={onClose} />
    </Dialog>
  );
}

function NameForm({
  initial,
  submitLabel,
  busy,
  error,
  onCancel,
  onSubmit,
}: NameFormProps & { onCancel: () => void }) {
  const [name, setName] = useState(initial);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(name.trim());
  };
  return (
    <form onSubmit={submit}>
      <NameField id="name-field" value={name} onChange={setName} />
      <FormActions
        error={error}
        submitLabel={busy ? "Saving…" : submitLabel}
        disabled={busy || name.trim() === ""}
        onCancel={onCancel}
      />
    </form>
  );
}

/** A name as the platform takes it: required, at most 200 characters. */
export function NameField({
  id,
  label = "Name",
  value,
  placeholder,
  onChange,
}: {
  id: string;
  label?: string;
  value: string;
  placeholder?: string;
  onChange(name: string): void;
}) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        value={value}
        placeholder={placeholder}
        onChange={(event) => onChange(event.target.value)}
        required
        maxLength={200}
      />
    </>
  );
}
