"""The LMS route (INSTRUCTORS.md, "The LMS route"): the release as one zip to upload to Canvas or Moodle, their bulk
download of submissions collected into submitted/ (through nbgrader's own `zip_collect` seams), and the grades and
feedback back in the form each LMS imports. One job per module:

  release_zip  the student version of an assignment as one deterministic zip (`make release-zip`);
  member_names what a member of an LMS download is, from its name alone (Canvas, Moodle, or a pattern of yours);
  safezip      reading a zip nobody vouches for: member names, kinds, sizes and ratios checked, reads bounded;
  roster       the LMS's own list of students (Canvas gradebook export, Moodle grading worksheet) as nbgrader ids;
  extractor    SafeExtractor, nbgrader's ExtractorPlugin made safe (c.ZipCollectApp.extractor_plugin);
  collector    LmsCollector, nbgrader's FileNameCollectorPlugin for LMS names (c.ZipCollectApp.collector_plugin);
  refusals     every kind of file not placed, and the sentence an instructor reads for it;
  collect_zip  `make collect-zip ZIP=...`: nbgrader zip_collect with both plugins, then the report;
  grades       `make lms-grades`: the gradebook as the LMS's import CSV, CSV-safe (classroom.csvsafe);
  feedback     `make lms-feedback`: feedback/ as the zip each LMS's bulk feedback upload reads.
"""
