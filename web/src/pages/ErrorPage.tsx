/** What a reader sees when the link or token is not (or no longer) valid, or the server refuses the page. */
export function ErrorPage(props: { status?: number; message?: string }) {
  const gone = props.status === 404;
  return (
    <div className="error-page" data-testid="error-page" data-status={props.status ?? 0} role="alert">
      <h1>{gone ? 'This link is no longer available' : 'Something went wrong'}</h1>
      <p>
        {gone
          ? 'It may have been disabled or the item removed. Ask whoever shared it for a new link.'
          : (props.message ?? 'The page could not be loaded.')}
      </p>
    </div>
  );
}
