import { useState } from 'preact/hooks';
import { request } from '../api/request';
import { ChangeInAppMessageDocument, type ChangeInAppMessageMutationVariables, type InAppMessagePageFragment } from '../generated/graphql';
import { problemOf, type Problem } from './settings-common';

/**
 * Saving a change to a message (its content, audience or schedule): busy while it is sent, the
 * service's refusal kept by field until a save goes through, the message as saved handed on.
 */
export function useMessageChange(id: string, onSaved: (m: InAppMessagePageFragment) => void) {
  const [problem, setProblem] = useState<Problem | undefined>();
  const [busy, setBusy] = useState(false);
  const change = async (input: () => ChangeInAppMessageMutationVariables['input']) => {
    setBusy(true);
    try {
      const { changeInAppMessage } = await request(ChangeInAppMessageDocument, { id, input: input() });
      setProblem(undefined);
      onSaved(changeInAppMessage);
    } catch (err) {
      setProblem(problemOf(err));
    } finally {
      setBusy(false);
    }
  };
  return { problem, busy, change };
}
