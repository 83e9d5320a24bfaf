import { Fragment } from "react";

/** A branch name that wraps at its slashes on a narrow screen (`teamhub/<team>/<session>` is long), not mid-word. */
export function BranchName({ name }: { name: string }) {
  return (
    <code className="code-branch">
      {name.split("/").map((part, i) => (
        <Fragment key={i}>
          {i > 0 && (
            <>
              /<wbr />
            </>
          )}
          {part}
        </Fragment>
      ))}
    </code>
  );
}
