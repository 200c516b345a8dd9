// The life of a handle over a WASM object (a table, a run, a training, positions): its methods
// call the object until delete() frees it, a method after that is refused in words that say what
// to do instead, and a handle nobody deleted frees its WASM memory when it is collected.

const abandoned = new FinalizationRegistry((handle) => handle.delete());

// checks: embedlab.mjs's { EmbedlabError, unwrap }. Returns { owned, register }:
//   owned(handle, what, again) -> { call(method, ...args), delete(owner) }: what names the handle
//     in messages ('table'), again says what to do after delete() ('open the table again');
//   register(owner, handle) -> owner: the handle is freed when owner is collected undeleted.
export function handleLife({ EmbedlabError, unwrap }) {
  function owned(handle, what, again) {
    let open = true;
    return {
      call(method, ...args) {
        if (!open) throw new EmbedlabError(`${what}: ${method}() after delete(): ${again}`, null);
        return unwrap(handle[method](...args));
      },
      delete(owner) {
        if (!open) return;
        open = false;
        abandoned.unregister(owner);
        handle.delete();
      },
    };
  }

  function register(owner, handle) {
    abandoned.register(owner, handle, owner);
    return owner;
  }

  return { owned, register };
}
