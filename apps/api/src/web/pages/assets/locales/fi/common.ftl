language-picker = Kieli
