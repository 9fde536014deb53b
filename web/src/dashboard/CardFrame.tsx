import type { ReactNode } from 'react';

export type CardState = 'loading' | 'ready' | 'error';

/** The box of a card: title and description (when shown), the actions, then the body filling the rest. */
export function CardFrame(props: {
  testId: string;
  id?: number;
  state: CardState;
  title: string | null;
  description?: string | null;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section
      className="card"
      data-testid={props.testId}
      data-dashcard-id={props.id}
      data-state={props.state}
      aria-busy={props.state === 'loading'}
    >
      {(props.title || props.actions) && (
        <header className="card-header">
          {props.title && (
            <h3 className="card-title" title={props.description ?? undefined}>
              {props.title}
              {props.description && (
                <span className="card-info" aria-label={props.description}>
                  ⓘ
                </span>
              )}
            </h3>
          )}
          <span className="card-actions">{props.actions}</span>
        </header>
      )}
      <div className="card-body">{props.children}</div>
    </section>
  );
}

/** A card's failure, in words a reader understands. */
export function CardError(props: { message: string }) {
  return (
    <div className="card-error" role="alert" data-testid="card-error">
      <strong>There was a problem displaying this chart.</strong>
      <span>{props.message}</span>
    </div>
  );
}

export function Spinner() {
  return <div className="spinner" role="progressbar" aria-label="Loading" />;
}
