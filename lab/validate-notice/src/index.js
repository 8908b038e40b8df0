// When nbgrader's Validate reports success, say which checks only grading decides.
//
// nbgrader's "Validation Results" dialog ends with a fixed "Success! Your notebook passes all the tests." even when
// some graded checks have parts Validate cannot run (hidden inputs, memory measured in the grader's sandbox). Every
// grade cell with such a part says so in lines starting with MARKER; this plugin lists them under that success
// sentence. It reads the notebook whose toolbar Validate button was pressed; after a Validate pressed elsewhere
// (nbgrader's Assignments tab) it says in general that each notebook lists them. A dialog with failures is left as
// nbgrader made it. All text goes in through textContent.
import { INotebookTracker } from '@jupyterlab/notebook';

const MARKER = '# Only when graded:';
const NOTICE_CLASS = 'attention-lesson-validate-notice';
const DOCSTRING = /^\s*[rRuU]?("""|''')(.*)$/;

function sourceOf(cell) {
  return Array.isArray(cell.source) ? cell.source.join('') : cell.source || '';
}

// The first line of the cell's docstring (the string its code opens with), or its grade id when it has none.
function description(lines, gradeId) {
  const start = lines.findIndex(line => line.trim() && !line.trim().startsWith('#'));
  if (start >= 0 && DOCSTRING.test(lines[start])) {
    const [, quotes, rest] = lines[start].match(DOCSTRING);
    const first = rest.split(quotes)[0].trim() || (lines[start + 1] || '').split(quotes)[0].trim();
    if (first) {
      return first;
    }
  }
  return gradeId || 'a graded check';
}

// [{description, texts}] for each grade cell of the notebook that has MARKER lines, in notebook order.
function gradedOnly(notebookModel) {
  const found = [];
  for (const model of notebookModel.cells) {
    const cell = model.toJSON();
    const nbgrader = (cell.metadata || {}).nbgrader || {};
    if (nbgrader.grade !== true) {
      continue;
    }
    const lines = sourceOf(cell).split('\n');
    const texts = lines
      .filter(line => line.startsWith(MARKER))
      .map(line => line.slice(MARKER.length).trim())
      .filter(text => text);
    if (texts.length) {
      found.push({ description: description(lines, nbgrader.grade_id), texts });
    }
  }
  return found;
}

function element(tag, text) {
  const node = document.createElement(tag);
  if (text !== undefined) {
    node.textContent = text;
  }
  return node;
}

// The notice for a notebook's checks, or null when none of them has a part only grading decides.
function notebookNotice(checks) {
  if (!checks.length) {
    return null;
  }
  const notice = element('div');
  notice.append(element('p', 'Validate ran the checks written in this notebook. ' +
    'These are also decided only when your work is graded:'));
  const list = element('ul');
  for (const check of checks) {
    for (const text of check.texts) {
      const item = element('li');
      // a docstring's own closing full stop or colon gives way to the one colon before the text
      item.append(element('strong', check.description.replace(/[.:]+$/, '') + ':'), ' ' + text);
      list.append(item);
    }
  }
  notice.append(list);
  return notice;
}

function genericNotice() {
  const notice = element('div');
  notice.append(element('p', 'Validate ran the checks written in the notebook. Some checks are also decided ' +
    'only when your work is graded: each notebook lists them in its check cells, in lines starting "' +
    MARKER + '".'));
  return notice;
}

const plugin = {
  id: 'attention-lesson-validate-notice:plugin',
  description: 'Says, under a successful Validate, which checks are decided only when the work is graded.',
  autoStart: true,
  requires: [INotebookTracker],
  activate: (app, tracker) => {
    // The notebook whose toolbar Validate was pressed last (null after another Validate button), used by the next
    // Validation Results dialog only: so a dialog is never matched with a notebook it did not validate.
    let origin = null;
    // (JupyterLab's toolbar buttons are <jp-button> elements, nbgrader's Assignments tab has plain <button>s.)
    const remember = event => {
      const target = event.target instanceof Element ? event.target : null;
      const toolbarButton = target && target.closest('.validate-button');
      const button = target && target.closest('button, jp-button');
      if (toolbarButton) {
        origin = tracker.find(panel => panel.node.contains(toolbarButton)) || null;
      } else if (button && button.textContent.trim() === 'Validate') {
        origin = null;
      }
    };
    for (const type of ['pointerdown', 'keydown', 'click']) {
      document.addEventListener(type, remember, true);
    }

    const annotate = message => {
      const panel = origin;
      origin = null;
      if (!message.classList.contains('validation-success') || message.querySelector('.' + NOTICE_CLASS)) {
        return;
      }
      const alive = panel && !panel.isDisposed && panel.model;
      const notice = alive ? notebookNotice(gradedOnly(panel.model)) : genericNotice();
      if (notice) {
        notice.classList.add(NOTICE_CLASS);
        message.append(notice);
      }
    };
    // JupyterLab attaches each dialog to document.body, with its body (nbgrader's #validation-message) inside.
    new MutationObserver(records => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          const message = node instanceof Element ? node.querySelector('#validation-message') : null;
          if (message) {
            annotate(message);
          }
        }
      }
    }).observe(document.body, { childList: true });
  }
};

// nbgrader's Assignments tab shows "(view feedback)" beside a hand-in whose feedback was fetched; the link runs the
// file browser's go-to-path command on its folder, <assignment>/feedback/<timestamp> (the time of the hand-in, which
// starts with its date), which moves a file browser that may not be in sight and opens nothing. After that command on
// such a folder, this opens each feedback page in it (an .html file per notebook) in JupyterLab's HTML viewer.
const FEEDBACK_FOLDER = /(^|\/)feedback\/\d{4}-\d{2}-\d{2}[^/]*\/?$/;

const viewFeedback = {
  id: 'attention-lesson-validate-notice:view-feedback',
  description: "Opens the feedback pages when nbgrader's (view feedback) is clicked.",
  autoStart: true,
  activate: app => {
    app.commands.commandExecuted.connect((_, executed) => {
      const path = executed.args && executed.args.path;
      if (executed.id !== 'filebrowser:go-to-path' || typeof path !== 'string' || !FEEDBACK_FOLDER.test(path)) {
        return;
      }
      app.serviceManager.contents.get(path.replace(/\/$/, ''), { content: true }).then(folder => {
        for (const item of folder.content || []) {
          if (item.type === 'file' && item.name.endsWith('.html')) {
            app.commands.execute('docmanager:open', { path: item.path, factory: 'HTML Viewer' });
          }
        }
      }, () => undefined);  // a folder gone since the list was made: nothing to open
    });
  }
};

export default [plugin, viewFeedback];
