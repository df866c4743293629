export function LoadingScreen() {
  return (
    <div role="status" className="flex min-h-screen items-center justify-center text-xl font-semibold text-white">
      Loading...
    </div>
  );
}
